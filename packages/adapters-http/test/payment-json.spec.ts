/** An order's payment as the interface writes it: who sees the client secret, what the history and events show. */
import type { Order } from '@storefront/domain';
import { applyOrderMove, planMove, planPaymentChange, type OrderEventData, type OrderPayment } from '@storefront/domain/adapter-kit';
import { anOrder, anUnpaidOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { orderEventJson, orderJson } from '../src/mappers.js';
import { OrderJsonCache } from '../src/order-json-cache.js';

const SECRET = 'pi_123_secret_abc';

/** Awaiting its payment, with the intent's client secret. */
function anAwaitingOrder(): Order {
  return anUnpaidOrder({ clientSecret: SECRET });
}

/** Paid (placed), captured, then a refund of 100 asked for: versions 1 to 3, the last a payment-only change. */
function aRefundedOrder(): Order {
  const unpaid = anAwaitingOrder();
  const t = unpaid.createdAt.getTime();
  const authorized: OrderPayment = { ...unpaid.payment!, status: 'authorized', clientSecret: null, checkAt: null };
  const placed = applyOrderMove(unpaid, { ...planMove(unpaid, { to: 'placed', by: 'payment' }, new Date(t + 1000)), payment: authorized });
  const refund = { refundId: 'rf_1', providerRefundId: null, amount: 100, reason: 'cold', status: 'pending' as const, createdAt: new Date(t + 2000), fingerprint: '100:cold' };
  const asked: OrderPayment = { ...authorized, status: 'partially_refunded', amountCaptured: authorized.amount, amountRefunded: 100, refunds: [refund] };
  return applyOrderMove(placed, planPaymentChange(placed, asked, { refundId: 'rf_1' }, new Date(t + 2000)));
}

type Json = Record<string, unknown> & { payment: Record<string, unknown> | null };
const render = (order: Order, view?: 'owner' | 'shared'): Json => JSON.parse(JSON.stringify(orderJson(order, view))) as Json;

describe('An order\'s payment in the interface', () => {
  it('is null for an order paid on pickup or delivery', () => {
    expect(render(anOrder())).to.have.property('payment', null);
  });

  it('shows the payment in snake_case, with its refunds', () => {
    const order = aRefundedOrder();
    const payment = order.payment!;
    expect(render(order).payment).to.deep.equal({
      provider: payment.provider,
      status: 'partially_refunded',
      amount: payment.amount,
      currency: payment.currency,
      amount_captured: payment.amount,
      amount_refunded: 100,
      payment_intent_id: payment.intentId,
      refunds: [{ refund_id: 'rf_1', amount: 100, reason: 'cold', status: 'pending', created_at: payment.refunds[0]!.createdAt.toISOString() }],
    });
  });

  it('shows the client secret to the owner of an order awaiting its payment, and to nobody else', () => {
    const order = anAwaitingOrder();
    expect(render(order, 'owner').payment).to.have.property('client_secret', SECRET);
    expect(render(order, 'shared').payment).not.to.have.property('client_secret');
    expect(render(order).payment).not.to.have.property('client_secret');
  });

  it('never shows the client secret once the order is past awaiting, even when the payment still holds one', () => {
    const awaiting = anAwaitingOrder();
    const cancelled = applyOrderMove(awaiting, planMove(awaiting, { to: 'cancelled', by: 'owner' }, new Date()));
    expect(cancelled.payment!.clientSecret).to.equal(SECRET);
    expect(render(cancelled, 'owner').payment).not.to.have.property('client_secret');
  });

  it('leaves changes of the payment alone out of the status history, which still counts them in the version', () => {
    const order = aRefundedOrder();
    const json = render(order);
    expect(json['version']).to.equal(3);
    expect(json['status_history']).to.deep.equal(
      order.statusHistory.slice(0, 2).map((change) => ({ status: change.status, at: change.at.toISOString() })),
    );
  });

  it('renders an order.refunded event as the refund and the payment, without a client secret', () => {
    const order = aRefundedOrder();
    const event: OrderEventData = { type: 'order.refunded', orderId: order.orderId, customerId: order.customerId, version: 3, status: 'placed', at: order.updatedAt, order, refundId: 'rf_1' };
    const data = JSON.parse(JSON.stringify(orderEventJson(event))) as Record<string, unknown>;
    expect(data).to.deep.equal({
      order_id: order.orderId,
      version: 3,
      at: order.updatedAt.toISOString(),
      refund: (render(order).payment!['refunds'] as unknown[])[0],
      payment: render(order).payment,
    });
  });

  it('refuses to render an order.refunded event whose refund the order does not hold', () => {
    const order = aRefundedOrder();
    const event: OrderEventData = { type: 'order.refunded', orderId: order.orderId, customerId: order.customerId, version: 3, status: 'placed', at: order.updatedAt, order, refundId: 'rf_other' };
    expect(() => orderEventJson(event)).to.throw(TypeError, /rf_other/);
  });
});

describe('OrderJsonCache and the client secret', () => {
  it('never keeps the owner\'s rendering: a staff read after the owner\'s gets no secret, and the owner\'s after staff\'s gets it', () => {
    const cache = new OrderJsonCache();
    const order = anAwaitingOrder();
    const owner = () => (JSON.parse(cache.bytesOf(order, 'owner').toString()) as Json).payment;
    const staff = () => (JSON.parse(cache.bytesOf(order).toString()) as Json).payment;
    expect(owner()).to.have.property('client_secret', SECRET);
    expect(staff()).not.to.have.property('client_secret');
    expect(owner()).to.have.property('client_secret', SECRET);
    expect(cache.pageBytes({ items: [order], total: 1, page: 1, perPage: 20, nextPage: null }).toString()).not.to.include(SECRET);
    expect(cache.pageBytes({ items: [order], total: 1, page: 1, perPage: 20, nextPage: null }, 'owner').toString()).to.include(SECRET);
  });

  it('serves the owner of an order not awaiting its payment from the cache, as anybody', () => {
    const cache = new OrderJsonCache();
    const order = aRefundedOrder();
    expect(cache.bytesOf(order, 'owner')).to.equal(cache.bytesOf(order));
  });
});
