/**
 * Slot capacity on PostgreSQL: the contract with two instances (two pools on one database, as two
 * processes of the service would have), so that 50 racers from both contend for one slot's row.
 */
import { describeSlotCapacityContract } from '@storefront/testing';
import { after, before, describe } from 'mocha';
import pg from 'pg';
import { createPostgresAdapters, type PostgresAdapters } from '../src/index.js';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresSlotPlaces', () => {
  let secondPool: pg.Pool | undefined;
  let second: PostgresAdapters | undefined;
  // Registered before the database's own hooks: the second pool ends before the database is dropped.
  after(async () => {
    await secondPool?.end();
  });
  const { adapters, database } = usePostgresAdapters('storefront_slots');
  before(async () => {
    secondPool = new pg.Pool({ connectionString: database().url, max: 10 });
    // As the first pool: a connection the dropped database ends must not crash the run.
    secondPool.on('error', () => undefined);
    second = await createPostgresAdapters({ pool: secondPool });
  });
  describeSlotCapacityContract('PostgresSlotPlaces, two instances on one database', async () => ({
    orders: adapters().orders,
    idempotencyKeys: adapters().idempotencyKeys,
    menu: adapters().menu,
    places: adapters().slotPlaces,
    second: { orders: second!.orders, idempotencyKeys: second!.idempotencyKeys, places: second!.slotPlaces },
  }));
});
