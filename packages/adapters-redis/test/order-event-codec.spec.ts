import { describe, it } from 'mocha';
import { expect } from 'chai';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { anOrder, anOrderLine } from '@storefront/testing';
import { decodeEvent, encodeEvent } from '../src/order-event-codec.js';
import { aRefundedDeliveryOrder } from './paid-orders.js';

/** An `order.placed` entry as the log wrote it before payments: no payment, no `unpaid`, no `refundId`. */
const BEFORE_PAYMENTS =
  '{"type":"order.placed","orderId":"ord_1","customerId":"cus_1","version":1,"status":"placed","at":"2025-06-01T12:00:00.000Z",' +
  '"order":{"orderId":"ord_1","customerId":"cus_1","items":[{"productId":"prd_1","name":"Margherita","quantity":1,"unitPrice":1250,"lineTotal":1250,"options":[],"taxRate":0}],' +
  '"subtotal":1250,"deliveryFee":0,"tip":0,"amount":1250,"pricesIncludeTax":false,"taxes":[],"taxTotal":0,"currency":"USD","createdAt":"2025-06-01T12:00:00.000Z",' +
  '"status":"placed","version":1,"updatedAt":"2025-06-01T12:00:00.000Z","statusHistory":[{"status":"placed","at":"2025-06-01T12:00:00.000Z"}],' +
  '"fulfilment":{"type":"pickup","time":"asap","promisedAt":"2025-06-01T12:00:00.000Z"}}}';

describe('order event codec', () => {
  it('gives back an order.placed event exactly, the options of its lines included', () => {
    const order = anOrder({ items: [anOrderLine({ unitPrice: 1690, options: [{ optionId: 'opt_large', name: 'Large', priceDelta: 400 }] }), anOrderLine()] });
    const event = eventOfVersion(order, 1);
    expect(decodeEvent('7', encodeEvent(event))).to.deep.equal({ ...event, id: '7' });
  });

  it('reads a line written before options existed (an entry replayed across an upgrade) with none', () => {
    const order = anOrder();
    const json = JSON.parse(encodeEvent(eventOfVersion(order, 1))) as { order: { items: Record<string, unknown>[] } };
    for (const line of json.order.items) delete line['options'];
    expect(decodeEvent('8', JSON.stringify(json)).order!.items[0]!.options).to.deep.equal([]);
  });

  it("gives back every event of a paid order exactly: unpaid, placed, refunded (the order, its payment's dates, the notes) and settled", () => {
    const order = aRefundedDeliveryOrder();
    const events = [1, 2, 3, 4].map((version) => eventOfVersion(order, version));
    expect(events.map((event) => event.type)).to.deep.equal(['order.status', 'order.placed', 'order.refunded', 'order.payment']);
    expect(events[0]).to.include({ unpaid: true });
    for (const event of events) expect(decodeEvent('9', encodeEvent(event))).to.deep.equal({ ...event, id: '9' });
    const refunded = decodeEvent('9', encodeEvent(events[2]!));
    expect(refunded.refundId).to.equal('rf_1');
    expect(refunded.order!.payment!.payBy).to.be.instanceOf(Date);
    expect(refunded.order!.payment!.refunds[0]!.createdAt).to.be.instanceOf(Date);
    expect(refunded.order!.statusHistory[2]).to.deep.equal(order.statusHistory[2]);
  });

  it("gives back a payment's next check as a Date or null, and an order without a payment without the key", () => {
    const order = aRefundedDeliveryOrder();
    const carrying = (checkAt: Date | null) => {
      const event = eventOfVersion(order, 3);
      return { ...event, order: { ...event.order!, payment: { ...order.payment!, checkAt } } };
    };
    const checkAt = new Date('2025-06-01T12:04:00.000Z');
    expect(decodeEvent('9', encodeEvent(carrying(checkAt))).order!.payment!.checkAt).to.deep.equal(checkAt);
    expect(decodeEvent('9', encodeEvent(carrying(null))).order!.payment!.checkAt).to.equal(null);
    const plain = decodeEvent('9', encodeEvent(eventOfVersion(anOrder(), 1)));
    expect(plain.order).not.to.have.property('payment');
    expect(plain).not.to.have.property('unpaid');
    expect(plain).not.to.have.property('refundId');
  });

  it('reads an entry written before payments as it was written', () => {
    const event = decodeEvent('3', BEFORE_PAYMENTS);
    expect(event).to.deep.equal({
      id: '3',
      type: 'order.placed',
      orderId: 'ord_1',
      customerId: 'cus_1',
      version: 1,
      status: 'placed',
      at: new Date('2025-06-01T12:00:00.000Z'),
      order: {
        orderId: 'ord_1',
        customerId: 'cus_1',
        items: [{ productId: 'prd_1', name: 'Margherita', quantity: 1, unitPrice: 1250, lineTotal: 1250, options: [], taxRate: 0 }],
        subtotal: 1250,
        deliveryFee: 0,
        tip: 0,
        amount: 1250,
        pricesIncludeTax: false,
        taxes: [],
        taxTotal: 0,
        currency: 'USD',
        createdAt: new Date('2025-06-01T12:00:00.000Z'),
        status: 'placed',
        version: 1,
        updatedAt: new Date('2025-06-01T12:00:00.000Z'),
        statusHistory: [{ status: 'placed', at: new Date('2025-06-01T12:00:00.000Z') }],
        fulfilment: { type: 'pickup', time: 'asap', promisedAt: new Date('2025-06-01T12:00:00.000Z') },
      },
    });
    expect(encodeEvent(event)).to.equal(BEFORE_PAYMENTS);
  });
});
