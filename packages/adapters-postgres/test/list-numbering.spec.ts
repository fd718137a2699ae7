/**
 * Positions given by readers (migration 3, list-numbering.ts), case by case: an order is stored
 * without positions and takes its place when a list is read, before the orders newer than it, and
 * moves meet orders still waiting for theirs.
 */
import { anOrder } from '@storefront/testing';
import type { Order } from '@storefront/domain';
import { OPEN_STATUSES, planMove } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
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
});
