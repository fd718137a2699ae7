/** The cache of rendered orders: one text per order version, never a stale one, never unbounded. */
import { type Order, type Page } from '@storefront/domain';
import { applyOrderMove } from '@storefront/domain/adapter-kit';
import { anOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { orderJson, pageMeta } from '../src/mappers.js';
import { OrderTexts } from '../src/order-texts.js';

/** The cache's answers as text, to compare with JSON.stringify. */
const text = (texts: OrderTexts, order: Order): string => texts.bytesOf(order).toString();
const pageText = (texts: OrderTexts, page: Page<Order>): string => texts.pageBytes(page).toString();

describe('OrderTexts', () => {
  it('renders an order as the same bytes as JSON.stringify of its JSON, cached or not', () => {
    const texts = new OrderTexts();
    const order = anOrder();
    expect(text(texts, order)).to.equal(JSON.stringify(orderJson(order)));
    expect(text(texts, order)).to.equal(JSON.stringify(orderJson(order)));
  });

  it('renders the new version of an order that has moved, not the cached text of the old one', () => {
    const texts = new OrderTexts();
    const placed = anOrder();
    expect(JSON.parse(text(texts, placed))).to.include({ status: 'placed', version: 1 });
    const accepted = applyOrderMove(placed, { orderId: placed.orderId, fromVersion: 1, status: 'accepted', at: new Date() });
    const rendered = JSON.parse(text(texts, accepted)) as { status: string; version: number; status_history: { status: string }[] };
    expect(rendered).to.include({ status: 'accepted', version: 2 });
    expect(rendered.status_history.map((h) => h.status)).to.deep.equal(['placed', 'accepted']);
  });

  it('renders each version as it is when an older one is read after a newer one (a read that raced a move)', () => {
    const texts = new OrderTexts();
    const placed = anOrder();
    const cancelled = applyOrderMove(placed, { orderId: placed.orderId, fromVersion: 1, status: 'cancelled', at: new Date(), reason: 'sold out' });
    text(texts, cancelled);
    expect(JSON.parse(text(texts, placed))).to.include({ status: 'placed' });
    expect(JSON.parse(text(texts, cancelled))).to.include({ status: 'cancelled', reason: 'sold out' });
  });

  it('holds at most maxEntries orders, evicting the least recently used', () => {
    const texts = new OrderTexts(3);
    const orders = Array.from({ length: 10 }, () => anOrder());
    for (const order of orders) text(texts, order);
    expect(texts.size).to.equal(3);
    // orders[7..9] are cached; reading orders[7] again makes orders[8] the least recently used.
    text(texts, orders[7]!);
    text(texts, anOrder());
    expect(texts.size).to.equal(3);
    expect(texts.has(orders[7]!.orderId), 'recently read: kept').to.equal(true);
    expect(texts.has(orders[8]!.orderId), 'least recently used: evicted').to.equal(false);
  });

  it('assembles a page as the bytes of JSON.stringify({meta, orders})', () => {
    const texts = new OrderTexts();
    const items = [anOrder(), anOrder({ reason: 'x' })];
    const page = { items, total: 5, page: 1, perPage: 2, nextPage: 2 };
    expect(pageText(texts, page)).to.equal(JSON.stringify({ meta: pageMeta(page), orders: items.map(orderJson) }));
    expect(pageText(texts, { ...page, items: [], nextPage: null })).to.equal(JSON.stringify({ meta: pageMeta({ ...page, nextPage: null }), orders: [] }));
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new OrderTexts(0)).to.throw(RangeError);
  });
});
