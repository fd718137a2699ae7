/**
 * The memory store's kitchen queue (listByStatus) beyond the contract: every page agrees with a
 * plain sort-and-filter model through thousands of moves, and at a million orders a deep page costs
 * what the first does (counted in rows compared or read, not timed: CI machines are noisy).
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderLine, OrderStatus } from '@storefront/domain';
import { ORDER_STATUSES } from '@storefront/domain';
import { compareOrders, legacyFulfilment, newId, OPEN_STATUSES, OrderStamper, placedState, planMove } from '@storefront/domain/adapter-kit';
import { anOrder, anOrderLine, seededRandom } from '@storefront/testing';
import { InMemoryOrderRepository } from '../src/index.js';

/** The next statuses a kitchen may move an order to (staff), with the reason it needs. */
const NEXT: Partial<Record<OrderStatus, readonly [OrderStatus, string | undefined][]>> = {
  placed: [['accepted', undefined], ['rejected', 'No'], ['cancelled', 'Closing']],
  accepted: [['preparing', undefined], ['cancelled', 'Oven']],
  preparing: [['ready', undefined], ['cancelled', 'Burnt']],
  ready: [['completed', undefined]],
};

describe('InMemoryOrderRepository: the kitchen queue', () => {
  it('answers every page of every status filter as a sorted, filtered list would, through thousands of moves', async function () {
    this.timeout(30_000);
    const random = seededRandom(42);
    const orders = new InMemoryOrderRepository();
    const customers = Array.from({ length: 7 }, () => newId('cus'));
    const model = new Map<string, Order>();
    const start = Date.UTC(2025, 0, 1);
    // Three thousand orders, created in no particular order and often in the same millisecond, so
    // that a status's list spans several chunks and is changed in the middle.
    for (let i = 0; i < 3000; i++) {
      const order = anOrder({ customerId: customers[i % customers.length]!, createdAt: new Date(start + Math.floor(random() * 1500)) });
      await orders.insert(order);
      model.set(order.orderId, order);
    }
    const ids = [...model.keys()];
    const check = async (round: number): Promise<void> => {
      const all = [...model.values()].sort(compareOrders);
      const filters: OrderStatus[][] = [[...OPEN_STATUSES], [...ORDER_STATUSES], ['placed'], ['completed', 'placed'], ['ready', 'rejected', 'preparing']];
      for (const statuses of filters) {
        const wanted = all.filter((order) => statuses.includes(order.status));
        for (const limit of [1, 7, 100]) {
          const pages = Math.ceil(wanted.length / limit) + 1;
          // Every page for a small limit would be slow to compare: a spread of pages, the last ones included.
          for (const page of new Set([1, 2, Math.ceil(pages / 3), Math.ceil(pages / 2), pages - 2, pages - 1, pages].filter((p) => p >= 1))) {
            const got = await orders.listByStatus(statuses, { page, limit });
            const expected = wanted.slice((page - 1) * limit, page * limit);
            expect(got.items.map((o) => o.orderId), `round ${round}, ${statuses.join(',')}, page ${page} of ${limit}`).to.deep.equal(expected.map((o) => o.orderId));
            expect(got.total).to.equal(wanted.length);
          }
        }
      }
    };
    await check(0);
    for (let round = 1; round <= 4; round++) {
      for (let i = 0; i < 1500; i++) {
        const order = model.get(ids[Math.floor(random() * ids.length)]!)!;
        const options = NEXT[order.status];
        if (options === undefined) continue;
        const [to, reason] = options[Math.floor(random() * options.length)]!;
        const moved = await orders.applyMove(planMove(order, { to, by: 'staff', reason }, new Date(start + 10_000 + round * 1000 + i)));
        expect(moved).to.not.equal(null);
        model.set(order.orderId, moved!);
      }
      await check(round);
    }
    const sample = ids.slice(0, 50).map((id) => model.get(id)!);
    for (const order of sample) expect(await orders.findById(order.orderId)).to.deep.equal(order);
  });

  it('reads no more rows for page 5,000 of a million orders than for page 1', async function () {
    this.timeout(60_000);
    const orders = new InMemoryOrderRepository();
    const stamper = new OrderStamper();
    const customers = Array.from({ length: 1000 }, () => newId('cus'));
    const line: OrderLine = anOrderLine();
    const start = Date.UTC(2025, 0, 1);
    const count = 1_000_000;
    let accepted = 0;
    for (let i = 0; i < count; i++) {
      const { orderId, createdAt } = stamper.next(new Date(start + i));
      const order: Order = { orderId, customerId: customers[i % 1000]!, items: [line], subtotal: line.lineTotal, deliveryFee: 0, tip: 0, amount: line.lineTotal, pricesIncludeTax: false, taxes: [], taxTotal: 0, currency: 'USD', createdAt, ...placedState(createdAt), fulfilment: legacyFulfilment(createdAt) };
      await orders.insert(order);
      // Every tenth order is accepted: two lists that interleave all the way through.
      if (i % 10 === 1 && (await orders.applyMove({ orderId, fromVersion: 1, status: 'accepted', at: new Date(start + count + i) })) !== null) accepted++;
    }

    const measure = async (statuses: readonly OrderStatus[], page: number) => {
      const reads = orders.statusQueueReads;
      const rows = orders.rowsReadByListings;
      const result = await orders.listByStatus(statuses, { page, limit: 100 });
      return { result, reads: orders.statusQueueReads - reads, rows: orders.rowsReadByListings - rows };
    };

    for (const statuses of [OPEN_STATUSES, ['placed'] as const]) {
      const first = await measure(statuses, 1);
      const deep = await measure(statuses, 5000);
      expect(first.rows).to.equal(100);
      expect(deep.rows).to.equal(100);
      // The deep page's binary searches are as long as the first page's, give or take a step.
      expect(deep.reads, `${statuses.join(',')}: page 1 read ${first.reads}`).to.be.at.most(first.reads + 200);
      expect(deep.reads).to.be.below(10_000);
      expect(deep.result.items).to.have.length(100);
      expect(deep.result.nextPage).to.equal(5001);
      if (statuses.length > 1) {
        // Every order is open: the union is the orders in creation order.
        expect(deep.result.total).to.equal(count);
        expect(deep.result.items[0]!.createdAt.getTime()).to.equal(start + 499_900);
        const expected = deep.result.items.map((o) => ((o.createdAt.getTime() - start) % 10 === 1 ? 'accepted' : 'placed'));
        expect(deep.result.items.map((o) => o.status)).to.deep.equal(expected);
        expect(new Set(expected)).to.have.property('size', 2);
      } else {
        expect(deep.result.total).to.equal(count - accepted);
        expect(deep.result.items.every((o) => o.status === 'placed')).to.equal(true);
      }
    }
  });
});
