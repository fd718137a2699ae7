/**
 * What the order payment writes and queries send, without a server (a stand-in collection records
 * them): a move's payment and history note in its one compare-and-set update, a check taken by one
 * findOneAndUpdate per order that moves only `checkAt`, and the payment indexes, whose partial
 * filters the queries carry as written so that the planner can use them. What a real server does
 * with them is the contract suite's job (mongo-adapters.spec.ts).
 */
import { planMove, planPaymentChange } from '@storefront/domain/adapter-kit';
import { anOrder, anUnpaidOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { Collection, Db, Document, IndexDescription, MongoClient } from 'mongodb';
import { ensureIndexes, INDEXES } from '../src/collections.js';
import { CHECK_ORDER, dueCheckFilter, intentFilter, MongoOrderPayments } from '../src/mongo-order-payments.js';
import { MongoOrderRepository } from '../src/mongo-order-repository.js';
import { toOrderDocument, type OrderDocument } from '../src/order-mapper.js';

interface SentUpdate {
  readonly filter: Document;
  readonly update: Document;
  readonly options: Document;
}

/** A collection that answers findOneAndUpdate with `answers`, in turn (then null), and findOne with `found`. */
function aStandIn(answers: readonly OrderDocument[] = [], found: OrderDocument | null = null) {
  const updates: SentUpdate[] = [];
  const finds: Document[] = [];
  const queue = [...answers];
  const collection = {
    findOneAndUpdate: async (filter: Document, update: Document, options: Document) => {
      updates.push({ filter, update, options });
      return queue.shift() ?? null;
    },
    findOne: async (filter: Document) => {
      finds.push(filter);
      return found;
    },
  };
  return { collection: collection as unknown as Collection<OrderDocument>, updates, finds };
}

describe('order payment writes (stand-in collection)', () => {
  describe('applyMove', () => {
    it("sets the move's payment and pushes its history note in the compare-and-set update", async () => {
      const order = anUnpaidOrder();
      const change = planPaymentChange(order, { ...order.payment!, status: 'failed', checkAt: null }, { refundId: 'rf_1' }, new Date(order.createdAt.getTime() + 1000));
      const standIn = aStandIn();
      await new MongoOrderRepository({} as MongoClient, standIn.collection).applyMove(change);
      const [sent] = standIn.updates;
      expect(sent!.filter).to.deep.equal({ _id: order.orderId, version: 1 });
      expect(sent!.update['$set']).to.deep.include({ status: 'awaiting_payment', version: 2, payment: toOrderDocument({ ...order, payment: change.payment! }).payment });
      expect(sent!.update['$push']).to.deep.equal({ statusHistory: { status: 'awaiting_payment', at: change.at, paymentChange: { refundId: 'rf_1' } } });
    });

    it('leaves the stored payment alone when the move carries none', async () => {
      const order = anOrder();
      const standIn = aStandIn();
      await new MongoOrderRepository({} as MongoClient, standIn.collection).applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
      const [sent] = standIn.updates;
      expect(sent!.update['$set']).to.not.have.property('payment');
      expect(sent!.update['$push']['statusHistory']).to.not.have.property('paymentChange');
    });
  });

  describe('MongoOrderPayments', () => {
    const now = new Date(Date.UTC(2025, 5, 1, 12));
    const lease = new Date(now.getTime() + 60_000);
    const due = () => toOrderDocument(anUnpaidOrder({ checkAt: lease }));

    it('takes each check by one findOneAndUpdate on a due checkAt, earliest first, moving only checkAt to the lease', async () => {
      const standIn = aStandIn([due(), due(), due()]);
      const claimed = await new MongoOrderPayments(standIn.collection).claimChecks(now, lease, 2);
      expect(claimed).to.have.length(2);
      expect(standIn.updates).to.have.length(2);
      for (const sent of standIn.updates) {
        expect(sent.filter).to.deep.equal({ 'payment.checkAt': { $type: 'date', $lte: now } });
        expect(sent.update).to.deep.equal({ $set: { 'payment.checkAt': lease } });
        expect(sent.options).to.deep.include({ sort: { 'payment.checkAt': 1, _id: 1 }, returnDocument: 'after' });
      }
    });

    it('stops at the first attempt that finds nothing due', async () => {
      const standIn = aStandIn([due()]);
      expect(await new MongoOrderPayments(standIn.collection).claimChecks(now, lease, 10)).to.have.length(1);
      expect(standIn.updates).to.have.length(2);
    });

    it('refuses a lease that does not end after now, sending nothing (it would leave the orders due for every caller)', async () => {
      for (const until of [now, new Date(now.getTime() - 1)]) {
        const standIn = aStandIn([due()]);
        let refused: unknown;
        await new MongoOrderPayments(standIn.collection).claimChecks(now, until, 5).catch((error: unknown) => (refused = error));
        expect(refused).to.be.instanceOf(RangeError);
        expect(standIn.updates).to.deep.equal([]);
      }
    });

    it('finds an order by its intent with the intent index partial filter in the query', async () => {
      const order = anUnpaidOrder();
      const standIn = aStandIn([], toOrderDocument(order));
      expect(await new MongoOrderPayments(standIn.collection).findByIntent(order.payment!.intentId)).to.deep.equal(order);
      expect(standIn.finds).to.deep.equal([{ 'payment.intentId': { $type: 'string', $eq: order.payment!.intentId } }]);
    });
  });

  describe('the payment indexes', () => {
    async function orderIndexes(): Promise<IndexDescription[]> {
      const created: Record<string, IndexDescription[]> = {};
      const db = { collection: (name: string) => ({ createIndexes: async (specs: IndexDescription[]) => void (created[name] = specs) }) };
      await ensureIndexes(db as unknown as Db, { replicated: false });
      return created['orders']!;
    }

    it('are created with the others: one order per intent (unique, only string intent ids), the checks (only dates)', async () => {
      const indexes = await orderIndexes();
      expect(indexes.find((spec) => spec.name === INDEXES.ordersByPaymentIntent)).to.deep.equal({
        name: INDEXES.ordersByPaymentIntent,
        key: { 'payment.intentId': 1 },
        unique: true,
        partialFilterExpression: { 'payment.intentId': { $type: 'string' } },
      });
      expect(indexes.find((spec) => spec.name === INDEXES.ordersPaymentChecks)).to.deep.equal({
        name: INDEXES.ordersPaymentChecks,
        key: CHECK_ORDER,
        partialFilterExpression: { 'payment.checkAt': { $type: 'date' } },
      });
    });

    it('have their partial filters in the queries that read them, as written', async () => {
      const indexes = await orderIndexes();
      const partial = (name: string) => indexes.find((spec) => spec.name === name)!.partialFilterExpression as Document;
      const [intentField, intentCondition] = Object.entries(partial(INDEXES.ordersByPaymentIntent))[0]!;
      expect(intentFilter('pi_1')[intentField]).to.deep.include(intentCondition);
      const [checkField, checkCondition] = Object.entries(partial(INDEXES.ordersPaymentChecks))[0]!;
      expect(dueCheckFilter(new Date())[checkField]).to.deep.include(checkCondition);
    });
  });
});
