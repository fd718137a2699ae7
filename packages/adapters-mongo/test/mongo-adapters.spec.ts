import {
  aCustomer,
  anIdempotencyClaim,
  anOrder,
  anOrderLine,
  aSession,
  anUnpaidOrder,
  describeCustomerRepositoryContract,
  describeMenuRepositoryContract,
  describeOrderLifecycleContract,
  describeIdempotencyKeysContract,
  describeOrderOutboxContract,
  describeOrderPaymentsContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  describePendingErasuresContract,
  describePasswordResetTokenStoreContract,
  describeProviderEventsContract,
  describeSessionStoreContract,
  describeSlotCapacityContract,
  describeStoreStateRepositoryContract,
  expectDomainError,
} from '@storefront/testing';
import { type Order, type OrderStatus, type Page } from '@storefront/domain';
import { newId, OPEN_STATUSES, planMove } from '@storefront/domain/adapter-kit';
import { Long, type Document } from 'mongodb';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { COLLECTIONS, createMongoAdapters, INDEXES, upgradeOrders, type MongoAdapters, type OrderDocument } from '../src/index.js';
import { toOrderDocument } from '../src/order-mapper.js';
import { isDuplicateKey } from '../src/database-errors.js';
import { findCustomerOrders, findOrdersByStatus, findUnpublishedOrders } from '../src/order-queries.js';
import { CHECK_ORDER, dueCheckFilter, intentFilter } from '../src/mongo-order-payments.js';
import { useTestDatabase } from './mongo-server.js';

describe('Mongo adapters', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
  });

  describeMenuRepositoryContract('MongoMenuRepository', async () => adapters.menu);
  describeOrderRepositoryContract('MongoOrderRepository', async () => adapters.orders);
  describeIdempotencyKeysContract('MongoIdempotencyKeys', async () => adapters);
  describeOrderPlacementFaultsContract('MongoOrderRepository', async () => adapters);
  describeOrderLifecycleContract('MongoOrderRepository', async () => adapters.orders);
  describeOrderOutboxContract('MongoOrderOutbox', async () => adapters);
  describeStoreStateRepositoryContract('MongoStoreStateRepository', async () => adapters.storeState);
  describeSlotCapacityContract('MongoSlotPlaces', async () => ({ orders: adapters.orders, idempotencyKeys: adapters.idempotencyKeys, menu: adapters.menu, places: adapters.slotPlaces }));
  describeCustomerRepositoryContract('MongoCustomerRepository', async () => adapters.customers);
  describePendingErasuresContract('MongoPendingErasures', async () => adapters);
  describeSessionStoreContract('MongoSessionStore', async () => adapters.sessions);
  describePasswordResetTokenStoreContract('MongoPasswordResetTokenStore', async () => adapters.resetTokens);
  describeProviderEventsContract('MongoProviderEvents', async () => adapters.providerEvents);
  describeOrderPaymentsContract('MongoOrderPayments', async () => ({ orders: adapters.orders, payments: adapters.orderPayments }));

  describe('createMongoAdapters', () => {
    it('can be run again on the same database (its indexes already exist)', async () => {
      const again = await createMongoAdapters({ db: db() });
      expect(await again.menu.revision()).to.equal(await adapters.menu.revision());
    });

    it('has a store probe that pings the database', async () => {
      expect(adapters.probes.map((probe) => probe.name)).to.deep.equal(['store']);
      await adapters.probes[0]!.check();
    });
  });

  describe('accounts', () => {
    it('tells a taken email (the customers_by_email index) from a taken id (the _id index)', async () => {
      const first = aCustomer();
      await adapters.customers.create(first);
      const sameEmail = (await expectDomainError(adapters.customers.create(aCustomer({ email: first.email })), 'conflict')) as Error;
      expect(isDuplicateKey(sameEmail.cause, INDEXES.customerEmail), String(sameEmail.cause)).to.equal(true);
      const sameId = (await expectDomainError(adapters.customers.create(aCustomer({ customerId: first.customerId })), 'conflict')) as Error;
      expect(isDuplicateKey(sameId.cause, '_id_'), String(sameId.cause)).to.equal(true);
      expect(isDuplicateKey(sameId.cause, INDEXES.customerEmail)).to.equal(false);
    });

    it("revokes a customer's sessions through the sessions_by_customer index, not a collection scan", async () => {
      const customerId = newId('cus');
      for (let i = 0; i < 3; i++) await adapters.sessions.create(aSession({ customerId }));
      // The update revokeAllOf sends, explained as the server would run it.
      const explained = await db().command({
        explain: { update: COLLECTIONS.sessions, updates: [{ q: { customerId, revokedAt: null }, u: { $set: { revokedAt: new Date() } }, multi: true }] },
        verbosity: 'queryPlanner',
      });
      expectIndexedPlan(explained, INDEXES.sessionsByCustomer);
    });

    it('keeps reset tokens under a TTL index on expiresAt and an index on the customer', async () => {
      const indexes = await db().collection(COLLECTIONS.passwordResetTokens).indexes();
      expect(indexes.find((spec) => spec['name'] === INDEXES.resetTokenExpiry)).to.deep.include({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
      expect(indexes.find((spec) => spec['name'] === INDEXES.resetTokensByCustomer)).to.deep.include({ key: { customerId: 1 } });
    });
  });

  describe('order listing', () => {
    it("reads a customer's page from the orders_by_customer index, without sorting in memory", async () => {
      const customerId = newId('cus');
      for (let i = 0; i < 5; i++) await adapters.orders.insert(anOrder({ customerId, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) }));
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const explained = await findCustomerOrders(orders, customerId, { page: 2, limit: 2 }).explain('queryPlanner');
      expectIndexedPlan(explained, INDEXES.ordersByCustomer);
    });

    it("reads the kitchen's queue of open orders from the orders_kitchen_queue index (promisedAt, createdAt, _id per status), merging the statuses without sorting in memory", async () => {
      const statuses: OrderStatus[] = [...OPEN_STATUSES, 'completed', 'cancelled'];
      for (let i = 0; i < 12; i++) {
        const placed = anOrder({ createdAt: new Date(Date.UTC(2025, 0, 2, 0, 0, i)) });
        const status = statuses[i % statuses.length]!;
        // Written as stored, whatever the lifecycle would allow: only the status matters to the plan.
        await adapters.orders.insert(status === 'placed' ? placed : { ...placed, status, version: 2 });
      }
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const explained = await findOrdersByStatus(orders, OPEN_STATUSES, { page: 2, limit: 2 }).explain('queryPlanner');
      expectIndexedPlan(explained, INDEXES.ordersByStatus);
    });

    it('reads the outbox from the partial orders_outbox index, least recently changed first, without sorting in memory', async () => {
      for (let i = 0; i < 5; i++) await adapters.orders.insert(anOrder({ createdAt: new Date(Date.UTC(2025, 0, 3, 0, 0, i)) }));
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const explained = await findUnpublishedOrders(orders, 3).explain('queryPlanner');
      expectIndexedPlan(explained, INDEXES.ordersOutbox);
      const index = (await orders.indexes()).find((spec) => spec['name'] === INDEXES.ordersOutbox);
      expect(index).to.deep.include({ key: { updatedAt: 1, _id: 1 }, partialFilterExpression: { eventsPending: true } });
    });
  });

  describe('order payments', () => {
    it('refuse a second order with the same intent (the orders_by_payment_intent unique index), and keep orders without one out of it', async () => {
      const first = anUnpaidOrder();
      await adapters.orders.insert(first);
      const error = await adapters.orders.insert(anUnpaidOrder({ intentId: first.payment!.intentId })).then(
        () => null,
        (refused: unknown) => refused,
      );
      expect(isDuplicateKey(error, INDEXES.ordersByPaymentIntent), String(error)).to.equal(true);
      // Two orders without a payment: no null intent held twice.
      for (let i = 0; i < 2; i++) expect((await adapters.orders.insert(anOrder())).inserted).to.equal(true);
    });

    it('find an order by its intent from the orders_by_payment_intent index', async () => {
      const order = anUnpaidOrder();
      await adapters.orders.insert(order);
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      expectIndexedPlan(await orders.find(intentFilter(order.payment!.intentId)).explain('queryPlanner'), INDEXES.ordersByPaymentIntent);
    });

    it('take a check from the partial orders_payment_checks index, earliest first, without sorting in memory', async () => {
      for (let i = 0; i < 3; i++) await adapters.orders.insert(anUnpaidOrder({ checkAt: null }));
      const explained = await db().command({
        explain: { findAndModify: COLLECTIONS.orders, query: dueCheckFilter(new Date(Date.UTC(1900, 0, 1))), sort: CHECK_ORDER, update: { $set: { 'payment.checkAt': new Date() } }, new: true },
        verbosity: 'queryPlanner',
      });
      expectIndexedPlan(explained, INDEXES.ordersPaymentChecks);
    });

    it('lease a check without touching the outbox fields: the lease is no change of the order', async () => {
      // A year before every lease the contract's checks leave, so that only this order is due.
      const t0 = Date.UTC(1900, 0, 1);
      const order = anUnpaidOrder({ checkAt: new Date(t0) });
      await adapters.orders.insert(order);
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      await adapters.orderOutbox.markPublished(order.orderId, 1);
      const before = await orders.findOne({ _id: order.orderId });
      const claimed = await adapters.orderPayments.claimChecks(new Date(t0 + 1000), new Date(t0 + 61_000), 5);
      expect(claimed.map((o) => o.orderId)).to.deep.equal([order.orderId]);
      const after = await orders.findOne({ _id: order.orderId });
      expect(after).to.deep.equal({ ...before, payment: { ...before!.payment, checkAt: new Date(t0 + 61_000) } });
      expect(after).to.not.have.property('eventsPending');
    });
  });

  describe('the outbox fields', () => {
    it('are written with a new order and kept out of the order read back', async () => {
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const order = anOrder();
      await adapters.orders.insert(order);
      expect(await orders.findOne({ _id: order.orderId })).to.deep.include({ publishedVersion: 0, eventsPending: true });
      expect(await adapters.orders.findById(order.orderId)).to.deep.equal(order);
      await adapters.orderOutbox.markPublished(order.orderId, 1);
      const published = await orders.findOne({ _id: order.orderId });
      expect(published).to.deep.include({ publishedVersion: 1 });
      expect(published).to.not.have.property('eventsPending');
    });

    it('are absent from orders stored before events, which are never due; a move of one makes only that move due', async () => {
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      // Older than every change the outbox contract makes, so that it would be listed first.
      const order = anOrder({ createdAt: new Date(Date.UTC(1975, 0, 1)) });
      await orders.insertOne(toOrderDocument(order));
      const due = async () => (await adapters.orderOutbox.listUnpublished(5)).filter((entry) => entry.order.orderId === order.orderId);
      expect(await due()).to.deep.equal([]);
      const moved = await adapters.orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date(Date.UTC(1975, 0, 1, 0, 5))));
      expect(await due()).to.deep.equal([{ order: moved, publishedVersion: 1 }]);
    });
  });

  describe('orders stored before fulfilment', () => {
    it('are promised when they were placed once the adapters start, and reach the kitchen queue in that order', async () => {
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const order = anOrder({ createdAt: new Date(Date.UTC(2019, 0, 2)) });
      const { promisedAt: _p, fulfilment: _f, subtotal: _s, deliveryFee: _d, tip: _t, ...legacy } = toOrderDocument(order);
      await orders.insertOne(legacy);
      await createMongoAdapters({ db: db() });
      expect((await orders.findOne({ _id: order.orderId }))?.promisedAt).to.deep.equal(order.createdAt);
      const found = await findInQueue(adapters, 'placed', order.orderId);
      expect(found?.fulfilment).to.deep.equal({ type: 'pickup', time: 'asap', promisedAt: order.createdAt });
    });

    it('lose their delivery addresses when their customer is erased, and no one else\'s', async () => {
      const address = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132 };
      const delivery = (customerId: string) =>
        anOrder({ customerId, fulfilment: { type: 'delivery', time: 'asap', promisedAt: new Date(Date.UTC(2030, 0, 1, 12)), address, zone: 'Centre' } });
      const [erased, kept] = [delivery(newId('cus')), delivery(newId('cus'))];
      await adapters.orders.insert(erased);
      await adapters.orders.insert(kept);
      await adapters.orders.eraseDeliveryAddresses(erased.customerId);
      expect((await adapters.orders.findById(erased.orderId))?.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: erased.fulfilment.promisedAt, zone: 'Centre' });
      expect((await adapters.orders.findById(kept.orderId))?.fulfilment.address).to.deep.equal(address);
    });
  });

  describe('orders stored before the kitchen lifecycle', () => {
    it('reach the queue as placed orders once the adapters start, and can be moved', async () => {
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const order = anOrder({ createdAt: new Date(Date.UTC(2019, 0, 1)) });
      const { status: _s, version: _v, updatedAt: _u, statusHistory: _h, ...legacy } = toOrderDocument(order);
      await orders.insertOne(legacy);

      await createMongoAdapters({ db: db() });
      const found = await findInQueue(adapters, 'placed', order.orderId);
      expect(found).to.deep.include({ status: 'placed', version: 1, updatedAt: order.createdAt });

      const moved = await adapters.orders.applyMove(planMove(found!, { to: 'accepted', by: 'staff' }, new Date(Date.UTC(2019, 0, 1, 0, 5))));
      expect(moved?.statusHistory.map((change) => change.status)).to.deep.equal(['placed', 'accepted']);
      expect(moved?.statusHistory[0]?.at).to.deep.equal(order.createdAt);
    });

    it('are upgraded once: running the upgrade again changes nothing', async () => {
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const { status: _s, version: _v, updatedAt: _u, statusHistory: _h, ...legacy } = toOrderDocument(anOrder());
      await orders.insertOne(legacy);
      expect(await upgradeOrders(db())).to.equal(1);
      expect(await upgradeOrders(db())).to.equal(0);
    });
  });

  describe('a store written by the first MongoDB release', () => {
    it("loses the orders' unique index on {customerId, idempotencyKey} at the next start", async () => {
      const orders = db().collection(COLLECTIONS.orders);
      await orders.createIndex({ customerId: 1, idempotencyKey: 1 }, { name: 'orders_by_idempotency_key', unique: true, partialFilterExpression: { idempotencyKey: { $exists: true } } });
      await createMongoAdapters({ db: db() });
      const keys = (await orders.indexes()).map((index) => index.key);
      expect(keys).to.not.deep.include({ customerId: 1, idempotencyKey: 1 });
      expect(keys).to.deep.include({ customerId: 1, createdAt: 1, _id: 1 });
    });

    it('has its key records upgraded when a claim meets them: a completed one replays its order, one in flight can be taken over, one without an order is gone', async () => {
      const records = db().collection(COLLECTIONS.idempotencyKeys);
      const order = anOrder();
      await db().collection<RawOrder>(COLLECTIONS.orders).insertOne({ ...toOrderDocument(order), idempotencyKey: 'replayed' });
      const later = new Date(Date.now() + 3_600_000);
      const firstRelease = (key: string, state: string, extra: Document = {}) => ({ customerId: order.customerId, key, state, fingerprint: 'f', lockExpiresAt: new Date(0), expiresAt: later, claimedAt: order.createdAt, ...extra });
      await records.insertMany([firstRelease('replayed', 'completed', { orderId: order.orderId }), firstRelease('in-flight', 'in_progress'), firstRelease('lost', 'completed', { orderId: 'ord_gone' })]);

      const claimOf = (key: string) => adapters.idempotencyKeys.claim(anIdempotencyClaim({ customerId: order.customerId, key, fingerprint: 'f' }), new Date());
      expect(await claimOf('replayed')).to.deep.include({ kind: 'held', order });
      const inFlight = await claimOf('in-flight');
      expect(inFlight.kind).to.equal('held');
      const record = (inFlight as Extract<typeof inFlight, { kind: 'held' }>).record;
      expect(record).to.include({ owner: 'first-release', state: 'in_progress' });
      expect(record.orderId).to.match(/^ord_/);
      expect(await adapters.idempotencyKeys.takeOver(record, 'first-release', 'new-holder', later)).to.equal(true);
      expect(await claimOf('lost')).to.deep.equal({ kind: 'claimed' });
    });

    it('has every amount stored as int64, and reads the int32 and double amounts it wrote', async () => {
      const order = anOrder();
      await adapters.orders.insert(order);
      const raw = await db().collection<RawOrder>(COLLECTIONS.orders).findOne({ _id: order.orderId }, { promoteLongs: false });
      expect(raw!['amount']).to.be.instanceOf(Long);
      const legacy = anOrder({ items: [anOrderLine({ unitPrice: 3_000_000_000, lineTotal: 3_000_000_000, quantity: 1 })], amount: 3_000_000_000 });
      const document = toOrderDocument(legacy);
      await db().collection<RawOrder>(COLLECTIONS.orders).insertOne({ ...document, amount: 3_000_000_000, items: document.items.map((item) => ({ ...item, unitPrice: 3_000_000_000, lineTotal: 3_000_000_000 })) });
      expect(await adapters.orders.findById(legacy.orderId)).to.deep.equal(legacy);
    });
  });
});

/** An order document as any version wrote it. */
type RawOrder = { _id: string; [field: string]: unknown };

/** The order in the queue of `status`, read page by page as a kitchen screen would. */
async function findInQueue(adapters: MongoAdapters, status: OrderStatus, orderId: string): Promise<Order | undefined> {
  for (let page: number | null = 1; page !== null; ) {
    const queue: Page<Order> = await adapters.orders.listByStatus([status], { page, limit: 100 });
    const found = queue.items.find((item) => item.orderId === orderId);
    if (found !== undefined) return found;
    page = queue.nextPage;
  }
  return undefined;
}

/** The winning plan reads `indexName` and neither sorts in memory nor scans the collection. */
function expectIndexedPlan(explained: Document, indexName: string): void {
  const stages = planStages(explained['queryPlanner']['winningPlan']);
  const names = stages.map((s) => s.stage);
  expect(names, JSON.stringify(stages)).to.not.include('SORT');
  expect(names, JSON.stringify(stages)).to.not.include('COLLSCAN');
  expect(stages.some((s) => /IXSCAN$/.test(s.stage) && s.indexName === indexName), JSON.stringify(stages)).to.equal(true);
}

interface PlanStage {
  readonly stage: string;
  readonly indexName: unknown;
}

/** Every stage of a winning plan, whichever engine produced it (classic, or SBE's `queryPlan`). */
function planStages(node: unknown, found: PlanStage[] = []): PlanStage[] {
  if (Array.isArray(node)) {
    for (const child of node) planStages(child, found);
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    if (typeof record['stage'] === 'string') found.push({ stage: record['stage'], indexName: record['indexName'] });
    for (const value of Object.values(record)) planStages(value, found);
  }
  return found;
}
