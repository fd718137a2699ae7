/** What is the memory store's own about payments: rows that keep them whole on every read, and the index's bounds. */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order } from '@storefront/domain';
import { planMove, planPaymentChange } from '@storefront/domain/adapter-kit';
import { anOrder, anUnpaidOrder } from '@storefront/testing';
import { createMemoryAdapters, IntentTakenError, InMemoryOrderRepository } from '../src/index.js';
import { aRefundedDeliveryOrder } from './paid-orders.js';

describe('InMemoryOrderRepository with payments', () => {
  it('reads a paid order back whole on every path: by id, by customer, by status, from the outbox', async () => {
    const { orders, orderOutbox } = createMemoryAdapters();
    const order = aRefundedDeliveryOrder();
    await orders.insert(order);
    expect(await orders.findById(order.orderId)).to.deep.equal(order);
    expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 10 })).items).to.deep.equal([order]);
    expect((await orders.listByStatus(['placed'], { page: 1, limit: 10 })).items).to.deep.equal([order]);
    expect(await orderOutbox.listUnpublished(10)).to.deep.equal([{ order, publishedVersion: 0 }]);
  });

  it('keeps the payment and the history notes through an erasure of the addresses', async () => {
    const { orders } = createMemoryAdapters();
    const order = aRefundedDeliveryOrder();
    await orders.insert(order);
    await orders.eraseDeliveryAddresses(order.customerId);
    const { address: _gone, ...fulfilment } = order.fulfilment;
    expect(await orders.findById(order.orderId)).to.deep.equal({ ...order, fulfilment });
  });

  it('keeps a note on the first history entry of an order stored as placed', async () => {
    const orders = new InMemoryOrderRepository();
    const plain = anOrder();
    const order: Order = { ...plain, statusHistory: [{ ...plain.statusHistory[0]!, paymentChange: { refundId: 'rf_0' } }] };
    await orders.insert(order);
    expect(await orders.findById(order.orderId)).to.deep.equal(order);
  });

  it('hands out payments of their own: changing one read changes nothing stored', async () => {
    const { orders, orderPayments } = createMemoryAdapters();
    const order = aRefundedDeliveryOrder();
    await orders.insert(order);
    const read = (await orders.findById(order.orderId))!;
    read.payment!.payBy.setTime(0);
    read.payment!.refunds[0]!.createdAt.setTime(0);
    expect(await orderPayments.findByIntent(order.payment!.intentId)).to.deep.equal(order);
  });

  it("refuses an order whose intent belongs to another order, on insert and on a move, and stores nothing", async () => {
    const { orders, orderPayments } = createMemoryAdapters();
    const first = anUnpaidOrder();
    await orders.insert(first);
    const second = anUnpaidOrder({ intentId: first.payment!.intentId });
    expect(() => (orders as InMemoryOrderRepository).insertNow(second)).to.throw(IntentTakenError);
    expect(await orders.findById(second.orderId)).to.equal(null);

    const third = anUnpaidOrder();
    await orders.insert(third);
    const move = planPaymentChange(third, { ...third.payment!, intentId: first.payment!.intentId }, {}, new Date());
    let error: unknown;
    await orders.applyMove(move).catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(IntentTakenError);
    expect(await orders.findById(third.orderId)).to.deep.equal(third);
    expect(await orderPayments.findByIntent(first.payment!.intentId)).to.deep.equal(first);
  });

  it('follows an intent that a move changes', async () => {
    const { orders, orderPayments } = createMemoryAdapters();
    const order = anUnpaidOrder();
    await orders.insert(order);
    const moved = (await orders.applyMove(planPaymentChange(order, { ...order.payment!, intentId: 'pi_other' }, {}, new Date())))!;
    expect(await orderPayments.findByIntent('pi_other')).to.deep.equal(moved);
    expect(await orderPayments.findByIntent(order.payment!.intentId)).to.equal(null);
  });

  it('claims an order once when its check went back to a time it had before', async () => {
    const { orders, orderPayments } = createMemoryAdapters();
    const order = anUnpaidOrder({ checkAt: new Date(1000) });
    await orders.insert(order);
    const later = (await orders.applyMove(planPaymentChange(order, { ...order.payment!, checkAt: new Date(5000) }, {}, new Date(2000))))!;
    await orders.applyMove(planPaymentChange(later, { ...order.payment!, checkAt: new Date(1000) }, {}, new Date(3000)));
    const claimed = await orderPayments.claimChecks(new Date(10_000), new Date(70_000), 10);
    expect(claimed.map((o) => o.orderId)).to.deep.equal([order.orderId]);
    expect(await orderPayments.claimChecks(new Date(10_000), new Date(70_000), 10)).to.deep.equal([]);
  });

  it('keeps its heap of checks bounded by the orders waiting, however many checks were cleared or moved', async () => {
    const orders = new InMemoryOrderRepository();
    const waiting = Array.from({ length: 3000 }, (_, i) => anUnpaidOrder({ checkAt: new Date(Date.UTC(2030, 0, 1) + i) }));
    for (const order of waiting) await orders.insert(order);
    for (const order of waiting) {
      const authorized = { ...order.payment!, status: 'authorized' as const, checkAt: null };
      await orders.applyMove({ ...planMove(order, { to: 'placed', by: 'payment' }, new Date(order.createdAt.getTime() + 1)), payment: authorized });
    }
    expect(orders.payments.heapSize).to.be.at.most(1024);
    const one = anUnpaidOrder({ checkAt: new Date(Date.UTC(2030, 0, 1)) });
    await orders.insert(one);
    let moved = one;
    for (let i = 1; i <= 1100; i++) {
      const payment = { ...one.payment!, checkAt: new Date(Date.UTC(2030, 0, 1) + i) };
      moved = (await orders.applyMove(planPaymentChange(moved, payment, {}, new Date(moved.updatedAt.getTime() + 1))))!;
    }
    expect(orders.payments.heapSize).to.be.at.most(2 + 1024 + 1);
  });
});
