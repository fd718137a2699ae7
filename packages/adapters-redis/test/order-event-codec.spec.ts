import { describe, it } from 'mocha';
import { expect } from 'chai';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { anOrder, anOrderLine } from '@storefront/testing';
import { decodeEvent, encodeEvent } from '../src/order-event-codec.js';

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
});
