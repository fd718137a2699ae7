/**
 * What every store must do with an order's card payment (issue 35): keep it whole through insert and
 * moves (refunds, dates, amounts), keep the history's payment-only entries, find an order by its
 * intent, and hand due checks to one sweeper at a time. Each test uses fresh ids; the `claimChecks`
 * tests work in a year of their own, so a store shared by other tests still answers only theirs.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderRepository } from '@storefront/domain';
import { applyOrderMove, planMove, planPaymentChange, type OrderPayment, type OrderPayments } from '@storefront/domain/adapter-kit';
import { anOrder, randomHex } from '../builders.js';

const RACERS = 8;
let years = 0;

/**
 * A moment in a year no other test uses, each older than the last (checkAt is compared across the
 * whole store: an earlier test's leases, later in time, are never due in a later test).
 */
function ownYear(): number {
  years += 1;
  return Date.UTC(2000 - 2 * years, 0, 1);
}

export function aPayment(overrides: Partial<OrderPayment> = {}): OrderPayment {
  return {
    provider: 'stripe',
    intentId: `pi_${randomHex(12)}`,
    clientSecret: `pi_x_secret_${randomHex(8)}`,
    status: 'awaiting',
    amount: 2450,
    currency: 'USD',
    amountCaptured: 0,
    amountRefunded: 0,
    refunds: [],
    payBy: new Date('2025-06-01T12:15:00.000Z'),
    checkAt: new Date('2025-06-01T12:02:00.000Z'),
    ...overrides,
  };
}

/** An order awaiting its payment (version 1). */
export function anUnpaidOrder(payment: Partial<OrderPayment> = {}, overrides: Partial<Order> = {}): Order {
  const base = anOrder(overrides);
  return {
    ...base,
    status: 'awaiting_payment',
    statusHistory: [{ status: 'awaiting_payment', at: base.createdAt }],
    payment: aPayment({ amount: base.amount, ...payment }),
  };
}

export interface OrderPaymentStores {
  readonly orders: OrderRepository;
  readonly payments: OrderPayments;
}

export function describeOrderPaymentsContract(name: string, factory: () => Promise<OrderPaymentStores>): void {
  describe(`${name} (OrderPayments contract)`, () => {
    it('keeps an order without a payment as it was (no `payment` key)', async () => {
      const { orders } = await factory();
      const order = anOrder();
      await orders.insert(order);
      const found = await orders.findById(order.orderId);
      expect(found).to.deep.equal(order);
      expect(found).not.to.have.property('payment');
    });

    it('keeps an awaiting order and its payment whole, and finds it by its intent', async () => {
      const { orders, payments } = await factory();
      const order = anUnpaidOrder();
      expect((await orders.insert(order)).inserted).to.equal(true);
      expect(await orders.findById(order.orderId)).to.deep.equal(order);
      expect(await orders.findOrder(order.customerId, order.orderId)).to.deep.equal(order);
      expect(await payments.findByIntent(order.payment!.intentId)).to.deep.equal(order);
      expect(await payments.findByIntent(`pi_${randomHex(12)}`)).to.equal(null);
    });

    it('lists awaiting orders only when asked for that status', async () => {
      const { orders } = await factory();
      const order = anUnpaidOrder();
      await orders.insert(order);
      const open = await orders.listByStatus(['placed', 'accepted', 'preparing', 'ready'], { page: 1, limit: 1000 });
      expect(open.items.map((o) => o.orderId)).not.to.include(order.orderId);
      let found = false;
      for (let page = 1; !found; page++) {
        const awaiting = await orders.listByStatus(['awaiting_payment'], { page, limit: 100 });
        found = awaiting.items.some((o) => o.orderId === order.orderId);
        if (awaiting.nextPage === null) break;
      }
      expect(found).to.equal(true);
    });

    it('applies a move with its payment, and a payment-only change with its history note', async () => {
      const { orders, payments } = await factory();
      const order = anUnpaidOrder();
      await orders.insert(order);
      const at = new Date(order.createdAt.getTime() + 30_000);
      const authorized: OrderPayment = { ...order.payment!, status: 'authorized', clientSecret: null, checkAt: null };
      const placed = await orders.applyMove({ ...planMove(order, { to: 'placed', by: 'payment' }, at), payment: authorized });
      expect(placed).to.deep.equal(applyOrderMove(order, { ...planMove(order, { to: 'placed', by: 'payment' }, at), payment: authorized }));
      expect(placed!.payment).to.deep.equal(authorized);

      const refunded: OrderPayment = {
        ...authorized,
        status: 'partially_refunded',
        amountCaptured: authorized.amount,
        amountRefunded: 500,
        refunds: [
          {
            refundId: 'rf_1',
            providerRefundId: null,
            amount: 500,
            reason: 'cold fries, sorry',
            status: 'pending',
            createdAt: new Date(at.getTime() + 1000),
            fingerprint: 'f1',
          },
        ],
        checkAt: new Date(at.getTime() + 121_000),
      };
      const change = planPaymentChange(placed!, refunded, { refundId: 'rf_1' }, new Date(at.getTime() + 1000));
      const after = await orders.applyMove(change);
      expect(after).to.deep.equal(applyOrderMove(placed!, change));
      expect(after!.status).to.equal('placed');
      expect(after!.statusHistory.at(-1)).to.deep.equal({ status: 'placed', at: change.at, paymentChange: { refundId: 'rf_1' } });
      expect(await orders.findById(order.orderId)).to.deep.equal(after);
      expect(await payments.findByIntent(order.payment!.intentId)).to.deep.equal(after);
      // A move without a payment keeps the stored one.
      const accept = planMove(after!, { to: 'accepted', by: 'staff' }, new Date(at.getTime() + 2000));
      expect((await orders.applyMove(accept))!.payment).to.deep.equal(refunded);
    });

    it('refuses a payment change planned on an old version (compare-and-set)', async () => {
      const { orders } = await factory();
      const order = anUnpaidOrder();
      await orders.insert(order);
      const at = new Date(order.createdAt.getTime() + 1000);
      const a = planPaymentChange(order, { ...order.payment!, checkAt: null }, {}, at);
      const b = planPaymentChange(order, { ...order.payment!, status: 'failed', checkAt: null }, {}, at);
      const results = await Promise.all([orders.applyMove(a), orders.applyMove(b)]);
      expect(results.filter((r) => r !== null)).to.have.length(1);
    });

    it('hands each due check to one caller, moves it to the lease, and skips orders not due', async () => {
      const { orders, payments } = await factory();
      const t0 = ownYear();
      const due = Array.from({ length: 5 }, (_, i) => anUnpaidOrder({ checkAt: new Date(t0 + i * 1000) }));
      const later = anUnpaidOrder({ checkAt: new Date(t0 + 3_600_000) });
      const none = anUnpaidOrder({ checkAt: null });
      for (const order of [...due, later, none]) await orders.insert(order);
      const now = new Date(t0 + 10_000);
      const lease = new Date(t0 + 70_000);
      const claimed = (await Promise.all(Array.from({ length: RACERS }, () => payments.claimChecks(now, lease, 2)))).flat();
      const ids = claimed.map((o) => o.orderId);
      expect(new Set(ids).size, 'no order twice').to.equal(ids.length);
      expect([...ids].sort()).to.deep.equal(due.map((o) => o.orderId).sort());
      for (const order of claimed) {
        expect(order.payment!.checkAt).to.deep.equal(lease);
        expect(order.version, 'the lease is no change of the order').to.equal(1);
      }
      expect(await payments.claimChecks(now, lease, 10)).to.deep.equal([]);
      // Once the lease has passed they are due again, earliest first, at most `limit`.
      const again = await payments.claimChecks(new Date(t0 + 70_000), new Date(t0 + 130_000), 3);
      expect(again).to.have.length(3);
      expect((await orders.findById(none.orderId))!.payment!.checkAt).to.equal(null);
    });

    it('takes an order out of the checks once a change clears its checkAt', async () => {
      const { orders, payments } = await factory();
      const t0 = ownYear();
      const order = anUnpaidOrder({ checkAt: new Date(t0) });
      await orders.insert(order);
      const at = new Date(t0 + 1000);
      await orders.applyMove({ ...planMove(order, { to: 'placed', by: 'payment' }, at), payment: { ...order.payment!, status: 'authorized', checkAt: null } });
      expect(await payments.claimChecks(new Date(t0 + 5000), new Date(t0 + 65_000), 10)).to.deep.equal([]);
    });
  });
}
