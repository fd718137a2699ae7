import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderLine } from '@storefront/domain';
import { legacyFulfilment, newId, OrderStamper, placedState, planMove } from '@storefront/domain/adapter-kit';
import { anIdempotencyClaim, anOrder, anOrderLine } from '@storefront/testing';
import { InMemoryIdempotencyKeys, InMemoryOrderOutbox, InMemoryOrderRepository } from '../src/index.js';

const DAY_MS = 24 * 3600 * 1000;

describe('InMemoryOrderRepository', () => {
  it('reads only the rows of the requested page, however deep the page is', async function () {
    this.timeout(20_000);
    const orders = new InMemoryOrderRepository();
    const customerId = newId('cus');
    const stamper = new OrderStamper();
    const line: OrderLine = anOrderLine();
    const start = Date.UTC(2025, 0, 1);
    const count = 200_000;
    for (let i = 0; i < count; i++) {
      const { orderId, createdAt } = stamper.next(new Date(start + i));
      const order: Order = { orderId, customerId, items: [line], subtotal: line.lineTotal, deliveryFee: 0, tip: 0, amount: line.lineTotal, pricesIncludeTax: false, taxes: [], taxTotal: 0, currency: 'USD', createdAt, ...placedState(createdAt), fulfilment: legacyFulfilment(createdAt) };
      await orders.insert(order);
    }

    const first = await orders.listByCustomer(customerId, { page: 1, limit: 20 });
    const readForFirst = orders.rowsReadByListings;
    const deep = await orders.listByCustomer(customerId, { page: 9_000, limit: 20 });
    const readForDeep = orders.rowsReadByListings - readForFirst;

    expect(readForFirst).to.equal(20);
    expect(readForDeep).to.equal(20);
    expect(first.items[0]!.createdAt.getTime()).to.equal(start);
    expect(deep.items[0]!.createdAt.getTime()).to.equal(start + 8_999 * 20);
    expect(deep).to.include({ total: count, page: 9_000, nextPage: 9_001 });
  });

  it('keeps orders sorted when they arrive out of order', async () => {
    const orders = new InMemoryOrderRepository();
    const customerId = newId('cus');
    const line = anOrderLine();
    const at = (ms: number, id: string): Order =>
      ({ orderId: id, customerId, items: [line], subtotal: line.lineTotal, deliveryFee: 0, tip: 0, amount: line.lineTotal, pricesIncludeTax: false, taxes: [], taxTotal: 0, currency: 'USD', createdAt: new Date(ms), ...placedState(new Date(ms)), fulfilment: legacyFulfilment(new Date(ms)) });
    for (const order of [at(30, 'ord_c'), at(10, 'ord_a'), at(20, 'ord_b'), at(20, 'ord_ab'), at(40, 'ord_d')]) {
      await orders.insert(order);
    }
    const page = await orders.listByCustomer(customerId, { page: 1, limit: 10 });
    expect(page.items.map((o) => `${o.createdAt.getTime()}:${o.orderId}`)).to.deep.equal([
      '10:ord_a', '20:ord_ab', '20:ord_b', '30:ord_c', '40:ord_d',
    ]);
  });

  it('hands out orders whose lines cannot be changed', async () => {
    const orders = new InMemoryOrderRepository();
    const customerId = newId('cus');
    const line = anOrderLine();
    await orders.insert(anOrder({ customerId, items: [line] }));
    const [listed] = (await orders.listByCustomer(customerId, { page: 1, limit: 1 })).items;
    expect(Object.isFrozen(listed!.items)).to.equal(true);
    expect(Object.isFrozen(listed!.items[0])).to.equal(true);
  });

  it('keeps nothing in the outbox for a published order, and finds the few changed among many published', async function () {
    this.timeout(20_000);
    const orders = new InMemoryOrderRepository();
    const outbox = new InMemoryOrderOutbox(orders);
    const stamper = new OrderStamper();
    const line: OrderLine = anOrderLine();
    const start = Date.UTC(2025, 0, 1);
    const placed: Order[] = [];
    for (let i = 0; i < 20_000; i++) {
      const { orderId, createdAt } = stamper.next(new Date(start + i));
      const order: Order = { orderId, customerId: newId('cus'), items: [line], subtotal: line.lineTotal, deliveryFee: 0, tip: 0, amount: line.lineTotal, pricesIncludeTax: false, taxes: [], taxTotal: 0, currency: 'USD', createdAt, ...placedState(createdAt), fulfilment: legacyFulfilment(createdAt) };
      await orders.insert(order);
      placed.push(order);
    }
    expect(outbox.size).to.equal(20_000);
    // Drained as the relay does: a batch, then its marks (a bounded number of batches, so that a
    // store that keeps what was marked fails here instead of spinning).
    for (let batch = 0; batch < 50; batch++) {
      const due = await outbox.listUnpublished(500);
      if (due.length === 0) break;
      for (const { order } of due) await outbox.markPublished(order.orderId, order.version);
    }
    expect(outbox.size).to.equal(0);
    const changed = [placed[7]!, placed[19_999]!, placed[3]!];
    for (const [i, order] of changed.entries()) await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date(start + 30_000 + i)));
    const due = await outbox.listUnpublished(100);
    expect(due.map((entry) => [entry.order.orderId, entry.order.version, entry.publishedVersion])).to.deep.equal(changed.map((order) => [order.orderId, 2, 1]));
    expect(outbox.size).to.equal(3);
  });

  it('lets a key be claimed afresh once its record has expired', async () => {
    const orders = new InMemoryOrderRepository();
    const keys = new InMemoryIdempotencyKeys(orders);
    const now = new Date();
    const claim = anIdempotencyClaim({ expiresAt: new Date(now.getTime() + DAY_MS) }, now);
    await keys.claim(claim, now);
    await orders.insert(anOrder({ orderId: claim.orderId, customerId: claim.customerId, createdAt: claim.orderCreatedAt }));
    await keys.complete(claim, claim.owner);
    const later = new Date(now.getTime() + DAY_MS);
    expect(await keys.claim({ ...claim, expiresAt: new Date(later.getTime() + DAY_MS) }, later)).to.deep.equal({ kind: 'claimed' });
  });

  it('drops expired idempotency records as new keys are claimed', async () => {
    const orders = new InMemoryOrderRepository();
    const keys = new InMemoryIdempotencyKeys(orders);
    const now = new Date();
    for (let i = 0; i < 2000; i++) await keys.claim(anIdempotencyClaim({}, now), now);
    expect(keys.recordCount).to.equal(2000);
    const later = new Date(now.getTime() + DAY_MS + 1);
    for (let i = 0; i < 2000; i++) await keys.claim(anIdempotencyClaim({}, later), later);
    expect(keys.recordCount).to.be.at.most(2000);
  });
});
