/**
 * Positions given by readers (migration 3, list-numbering.ts), case by case: an order is stored
 * without positions and takes its place when a list is read, before the orders newer than it, and
 * moves meet orders still waiting for theirs.
 */
import { anOrder } from '@storefront/testing';
import type { Order } from '@storefront/domain';
import { OPEN_STATUSES, planMove } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { listsOutOfPlace } from './list-positions.js';
import { usePostgresAdapters } from './postgres-adapters.js';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute));
const ids = (orders: readonly Order[]) => orders.map((order) => order.orderId);

describe('List positions given by readers (PostgreSQL)', () => {
  const { adapters, database } = usePostgresAdapters('storefront_numbering');
  const positions = async (orderId: string) =>
    (await database().pool.query('SELECT customer_seq, status_seq, open_seq FROM orders WHERE order_id = $1', [orderId])).rows[0];

  it('stores an order without positions, and gives them when its lists are read', async () => {
    const { orders } = adapters();
    const order = anOrder({ customerId: 'cus_num_a', createdAt: at(0) });
    await orders.insert(order);
    expect(await positions(order.orderId)).to.deep.equal({ customer_seq: null, status_seq: null, open_seq: null });
    await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 5 });
    expect(await positions(order.orderId)).to.deep.include({ customer_seq: null, status_seq: '1', open_seq: '1' });
    await orders.listByCustomer('cus_num_a', { page: 1, limit: 5 });
    expect(await positions(order.orderId)).to.deep.equal({ customer_seq: '1', status_seq: '1', open_seq: '1' });
  });

  it('places an order stored late before the newer orders already numbered', async () => {
    const { orders } = adapters();
    const newer = anOrder({ customerId: 'cus_num_b', createdAt: at(20) });
    const older = anOrder({ customerId: 'cus_num_b', createdAt: at(10) });
    await orders.insert(newer);
    await orders.listByCustomer('cus_num_b', { page: 1, limit: 5 });
    await orders.listByStatus(['placed'], { page: 1, limit: 5 });
    await orders.insert(older);
    expect(ids((await orders.listByCustomer('cus_num_b', { page: 1, limit: 5 })).items)).to.deep.equal(ids([older, newer]));
    const placed = await orders.listByStatus(['placed'], { page: 1, limit: 50 });
    expect(ids(placed.items).indexOf(older.orderId)).to.equal(ids(placed.items).indexOf(newer.orderId) - 1);
    expect(await listsOutOfPlace(database().pool)).to.deep.equal([]);
  });

  it('moves a numbered order into a status where newer orders wait for their place, before them', async () => {
    const { orders } = adapters();
    const first = anOrder({ customerId: 'cus_num_c', createdAt: at(30) });
    const second = anOrder({ customerId: 'cus_num_c', createdAt: at(31) });
    await orders.insert(first);
    await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 1 });
    // `second` is accepted before any reader numbered it: it waits in the accepted list.
    await orders.insert(second);
    await orders.applyMove(planMove(second, { to: 'accepted', by: 'staff' }, at(40)));
    await orders.applyMove(planMove(first, { to: 'accepted', by: 'staff' }, at(41)));
    const accepted = await orders.listByStatus(['accepted'], { page: 1, limit: 10 });
    expect(ids(accepted.items)).to.deep.equal(ids([first, second]));
    expect(accepted.total).to.equal(2);
    expect(await listsOutOfPlace(database().pool)).to.deep.equal([]);
  });

  it('numbers more waiting orders than one batch in one read', async () => {
    const { orders } = adapters();
    const many = Array.from({ length: 1_203 }, (_, i) => anOrder({ customerId: 'cus_num_d', createdAt: new Date(at(50).getTime() + i) }));
    for (let i = 0; i < many.length; i += 50) await Promise.all(many.slice(i, i + 50).map((order) => orders.insert(order)));
    const last = await orders.listByCustomer('cus_num_d', { page: 25, limit: 50 });
    expect(last.total).to.equal(many.length);
    expect(ids(last.items)).to.deep.equal(ids(many.slice(1_200)));
    const queue = await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 1 });
    expect(queue.total).to.equal((await database().pool.query("SELECT count(*)::int AS n FROM orders WHERE status IN ('placed', 'accepted', 'preparing', 'ready')")).rows[0].n);
    expect(await listsOutOfPlace(database().pool)).to.deep.equal([]);
  });

  describe('a batch behind which thousands of orders wait (a list nobody read for a while)', () => {
    const BACKLOG = 4_000;
    const BATCH = 100;
    /**
     * What a batch may read: each of the numbering's statements (a dozen for the kitchen's two
     * lists) reads the batch's rows once, and none reads the backlog (BACKLOG is well above this).
     */
    const READ_BOUND = 15 * BATCH;
    /** Placed orders the kitchen numbered before the backlog arrived. */
    const KITCHEN_NUMBERED = 20_000;
    const customer = 'cus_num_backlog';

    /**
     * Rows of `orders` the numbering statement read (heap fetches and sequential reads), in a
     * transaction of its own, rolled back. The transaction's counters also hold what the same
     * connection did before and has not reported yet (PostgreSQL 15 reports a connection's
     * statistics at most once a second): the difference across the statement is its own.
     */
    async function rowsReadBy(statement: string, values: unknown[]): Promise<number> {
      const client = await database().pool.connect();
      const rowsRead = async () =>
        Number(
          (await client.query<{ n: string }>("SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables WHERE relname = 'orders'"))
            .rows[0]?.n ?? 0,
        );
      try {
        await client.query('BEGIN');
        // A few thousand orders are a small table, read whole where a deployment's million would be
        // read by index: plans as on a large table, so that what is counted is the statements' shape.
        await client.query('SET LOCAL enable_seqscan = off');
        const before = await rowsRead();
        const numbered = (await client.query<{ n: number }>(statement, values)).rows[0]!.n;
        expect(numbered, 'a whole batch numbered').to.equal(BATCH);
        return (await rowsRead()) - before;
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    }

    before(async () => {
      const seed = anOrder({ customerId: customer, createdAt: at(59) });
      await adapters().orders.insert(seed);
      // Copies of one order a millisecond apart, each its own id: the backlog, stored in one statement.
      await database().pool.query(
        `INSERT INTO orders SELECT (jsonb_populate_record(o, jsonb_build_object(
            'order_id', o.order_id || '_' || g, 'created_at', o.created_at + g * interval '1 millisecond', 'promised_at', o.promised_at + g * interval '1 millisecond'))).*
           FROM orders o, generate_series(1, $2::int) g WHERE o.order_id = $1`,
        [seed.orderId, BACKLOG - 1],
      );
      // Plans as a deployment's after autovacuum's ANALYZE: this is about the statements' shape.
      await database().pool.query('ANALYZE orders');
    });

    it("reads about the batch's orders for a customer's list, not the backlog behind it", async () => {
      const read = await rowsReadBy('SELECT storefront_number_customer($1, $2) AS n', [customer, BATCH]);
      expect(read).to.be.below(READ_BOUND);
      expect(await listsOutOfPlace(database().pool)).to.deep.equal([]);
    });

    it("reads about the batch's orders for the kitchen's lists, not the backlog behind it", async () => {
      const { pool } = database();
      // The kitchen's other waiting orders (earlier tests') are numbered, then the backlog waits again.
      await adapters().orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 1 });
      await pool.query('UPDATE orders SET status_seq = NULL, open_seq = NULL WHERE customer_id = $1', [customer]);
      await pool.query("UPDATE order_list_sizes SET size = (SELECT count(*) FROM orders WHERE status_seq IS NOT NULL AND status = 'placed') WHERE list = 'status:placed'");
      await pool.query("UPDATE order_list_sizes SET size = (SELECT count(*) FROM orders WHERE open_seq IS NOT NULL) WHERE list = 'open'");
      // A kitchen that numbered many placed orders before the backlog arrived (a webhook-only
      // kitchen: nothing is ever moved), numbered in place after the earlier tests' orders.
      const seed = (await pool.query<{ order_id: string }>('SELECT order_id FROM orders WHERE customer_id = $1 ORDER BY created_at LIMIT 1', [customer])).rows[0]!.order_id;
      await pool.query(
        `INSERT INTO orders SELECT (jsonb_populate_record(o, jsonb_build_object(
            'order_id', o.order_id || '_numbered_' || g, 'customer_id', 'cus_num_kitchen', 'customer_seq', g,
            'created_at', $2::timestamptz + g * interval '1 millisecond', 'promised_at', $2::timestamptz + g * interval '1 millisecond',
            'status_seq', (SELECT size FROM order_list_sizes WHERE list = 'status:placed') + g,
            'open_seq', (SELECT size FROM order_list_sizes WHERE list = 'open') + g))).*
           FROM orders o, generate_series(1, $3::int) g WHERE o.order_id = $1`,
        [seed, at(58), KITCHEN_NUMBERED],
      );
      await pool.query("UPDATE order_list_sizes SET size = size + $1 WHERE list IN ('status:placed', 'open')", [KITCHEN_NUMBERED]);
      await pool.query("INSERT INTO order_list_sizes (list, size) VALUES ('customer:cus_num_kitchen', $1)", [KITCHEN_NUMBERED]);
      await pool.query('ANALYZE orders');

      const read = await rowsReadBy('SELECT storefront_number_kitchen($1) AS n', [BATCH]);
      expect(read).to.be.below(READ_BOUND);
      // Every list in place once read, the backlog appended after the numbered orders.
      expect(await listsOutOfPlace(pool)).to.deep.equal([]);
    });
  });
});
