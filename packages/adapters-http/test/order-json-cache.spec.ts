/** The cache of rendered orders: one text per order version, never a stale one, never unbounded. */
import { type Order, type Page } from '@storefront/domain';
import { applyOrderMove } from '@storefront/domain/adapter-kit';
import { anOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { orderJson, pageMeta } from '../src/mappers.js';
import { OrderJsonCache } from '../src/order-json-cache.js';

/** The cache's answers as text, to compare with JSON.stringify. */
const text = (cache: OrderJsonCache, order: Order): string => cache.bytesOf(order).toString();
const pageText = (cache: OrderJsonCache, page: Page<Order>): string => cache.pageBytes(page).toString();

describe('OrderJsonCache', () => {
  it('renders an order as the same bytes as JSON.stringify of its JSON, cached or not', () => {
    const cache = new OrderJsonCache();
    const order = anOrder();
    expect(text(cache, order)).to.equal(JSON.stringify(orderJson(order)));
    expect(text(cache, order)).to.equal(JSON.stringify(orderJson(order)));
  });

  it('keeps each rendering in a buffer of its own size, so that a cached order holds no shared slab alive', () => {
    const bytes = new OrderJsonCache().bytesOf(anOrder());
    expect(bytes.buffer.byteLength).to.equal(bytes.length);
  });

  it('renders the new version of an order that has moved, not the cached text of the old one', () => {
    const cache = new OrderJsonCache();
    const placed = anOrder();
    expect(JSON.parse(text(cache, placed))).to.include({ status: 'placed', version: 1 });
    const accepted = applyOrderMove(placed, { orderId: placed.orderId, fromVersion: 1, status: 'accepted', at: new Date() });
    const rendered = JSON.parse(text(cache, accepted)) as { status: string; version: number; status_history: { status: string }[] };
    expect(rendered).to.include({ status: 'accepted', version: 2 });
    expect(rendered.status_history.map((h) => h.status)).to.deep.equal(['placed', 'accepted']);
  });

  it('renders each version as it is when an older one is read after a newer one (a read that raced a move)', () => {
    const cache = new OrderJsonCache();
    const placed = anOrder();
    const cancelled = applyOrderMove(placed, { orderId: placed.orderId, fromVersion: 1, status: 'cancelled', at: new Date(), reason: 'sold out' });
    text(cache, cancelled);
    expect(JSON.parse(text(cache, placed))).to.include({ status: 'placed' });
    expect(JSON.parse(text(cache, cancelled))).to.include({ status: 'cancelled', reason: 'sold out' });
  });

  it('holds at most maxEntries orders, evicting the least recently used', () => {
    const cache = new OrderJsonCache(3);
    const orders = Array.from({ length: 10 }, () => anOrder());
    for (const order of orders) text(cache, order);
    expect(cache.size).to.equal(3);
    // orders[7..9] are cached; reading orders[7] again makes orders[8] the least recently used.
    text(cache, orders[7]!);
    text(cache, anOrder());
    expect(cache.size).to.equal(3);
    expect(cache.has(orders[7]!.orderId), 'recently read: kept').to.equal(true);
    expect(cache.has(orders[8]!.orderId), 'least recently used: evicted').to.equal(false);
  });

  it('evicts a sixteenth of a larger bound at once, least recently used first', () => {
    const cache = new OrderJsonCache(32);
    const orders = Array.from({ length: 32 }, () => anOrder());
    for (const order of orders) text(cache, order);
    text(cache, orders[0]!);
    text(cache, anOrder());
    expect(cache.size).to.equal(31);
    expect(cache.has(orders[0]!.orderId), 'recently read: kept').to.equal(true);
    expect([1, 2, 3].map((i) => cache.has(orders[i]!.orderId))).to.deep.equal([false, false, true]);
  });

  it('assembles a page as the bytes of JSON.stringify({meta, orders})', () => {
    const cache = new OrderJsonCache();
    const items = [anOrder(), anOrder({ reason: 'x' })];
    const page = { items, total: 5, page: 1, perPage: 2, nextPage: 2 };
    expect(pageText(cache, page)).to.equal(JSON.stringify({ meta: pageMeta(page), orders: items.map((o) => orderJson(o)) }));
    expect(pageText(cache, { ...page, items: [], nextPage: null })).to.equal(JSON.stringify({ meta: pageMeta({ ...page, nextPage: null }), orders: [] }));
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new OrderJsonCache(0)).to.throw(RangeError);
  });
});
