/**
 * The positions behind page-number paging (see the initial migration) stay dense and in order under
 * concurrent writers: orders placed out of time order by several customers at once while the
 * kitchen moves others through the lifecycle and readers page the lists (giving the positions,
 * migration 3), on a pool of ten connections.
 */
import { anOrder, seededRandom } from '@storefront/testing';
import { type Order, type OrderStatus } from '@storefront/domain';
import { OPEN_STATUSES, planMove } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { listsOutOfPlace } from './list-positions.js';
import { usePostgresAdapters } from './postgres-adapters.js';

/** A forward path through the kitchen for each order, ending in every status somewhere. */
const PATHS: readonly (readonly OrderStatus[])[] = [
  ['accepted', 'preparing', 'ready', 'completed'],
  ['rejected'],
  ['cancelled'],
  ['accepted', 'cancelled'],
  ['accepted', 'preparing'],
  [],
];

describe('Dense list positions under concurrent writers', () => {
  const { adapters, database } = usePostgresAdapters('storefront_positions');

  it('stay dense and in (created_at, order_id) order, with the right sizes, while orders are placed and moved at once', async function () {
    this.timeout(60_000);
    const { orders } = adapters();
    const random = seededRandom(25);
    const customers = ['cus_pos_a', 'cus_pos_b', 'cus_pos_c'];
    const base = Date.UTC(2026, 0, 1);
    // Creation times within a few seconds and inserted in a shuffled order: many out of time order.
    const placed: Order[] = Array.from({ length: 120 }, (_, i) =>
      anOrder({ customerId: customers[i % customers.length]!, createdAt: new Date(base + Math.floor(random() * 5000)) }),
    );
    const failures: unknown[] = [];
    const run = async (order: Order, path: readonly OrderStatus[]) => {
      await orders.insert(order);
      let current = order;
      for (const [step, to] of path.entries()) {
        const reason = to === 'rejected' || to === 'cancelled' ? 'Out of dough' : undefined;
        const moved = await orders.applyMove(planMove(current, { to, by: 'staff', reason }, new Date(base + 10_000 + step)));
        if (moved === null) throw new Error(`move of ${current.orderId} to ${to} lost`);
        current = moved;
      }
    };
    // Readers number the waiting orders while they are placed and moved (no ordering between them).
    let writing = true;
    const read = async (list: () => Promise<unknown>) => {
      while (writing) await list();
    };
    const readers = [
      read(() => orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 10 })),
      read(() => orders.listByStatus(['accepted'], { page: 2, limit: 5 })),
      ...customers.map((customer) => read(() => orders.listByCustomer(customer, { page: 1, limit: 10 }))),
    ].map((reading) => reading.catch((error: unknown) => failures.push(error)));
    const work = placed.map((order, i) => run(order, PATHS[i % PATHS.length]!).catch((error: unknown) => failures.push(error)));
    await Promise.all(work);
    writing = false;
    await Promise.all(readers);
    expect(failures.map(String)).to.deep.equal([]);
    // One more read of each list numbers what the readers left; the positions must then be right as they are.
    await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 1 });
    for (const customer of customers) await orders.listByCustomer(customer, { page: 1, limit: 1 });
    expect(await listsOutOfPlace(database().pool, { numberWaiting: false })).to.deep.equal([]);
    const queue = await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 100 });
    expect(queue.total).to.equal(placed.filter((_, i) => [4, 5].includes(i % PATHS.length)).length);
  });
});
