/**
 * The webhook store contracts on a throwaway database. The "other instance" of the delivery store
 * has its own pool: its lease statements run on other connections, as another process's would.
 * Then what only PostgreSQL can show: a lease skips the rows another worker is locking instead of
 * waiting for them.
 */
import { aWebhookEvent, describeWebhookDeliveryStoreContract, describeWebhookEndpointStoreContract } from '@storefront/testing';
import { newId } from '@storefront/domain';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import pg from 'pg';
import { PostgresWebhookDeliveryStore } from '../src/index.js';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('Postgres webhook stores', () => {
  const { adapters, database } = usePostgresAdapters('storefront_pg_webhooks');
  let otherPool: pg.Pool | undefined;
  before(() => {
    otherPool = new pg.Pool({ connectionString: database().url, max: 4 });
    otherPool.on('error', () => undefined);
  });
  after(async () => {
    await otherPool?.end();
  });

  describeWebhookEndpointStoreContract('PostgresWebhookEndpointStore', async () => adapters().webhookEndpoints);
  describeWebhookDeliveryStoreContract('PostgresWebhookDeliveryStore', async () => {
    await database().pool.query('TRUNCATE webhook_deliveries');
    return { store: adapters().webhookDeliveries, other: new PostgresWebhookDeliveryStore(otherPool!) };
  });

  it('leases around the rows another worker is locking, without waiting for it', async () => {
    const webhookId = newId('whk');
    const events = [1, 2, 3].map((i) => aWebhookEvent({ type: 'webhook.test', createdAt: new Date(Date.UTC(2025, 0, 15, 12, 0, i)) }));
    for (const event of events) await adapters().webhookDeliveries.enqueue(event, [webhookId]);
    // A worker that waited on the lock would fail after a second (lock_timeout), not hang the test.
    const impatient = new pg.Pool({ connectionString: database().url, max: 1, options: '-c lock_timeout=1000' });
    const holder = await otherPool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1 FOR UPDATE', [events[0]!.eventId]);
      const leased = await new PostgresWebhookDeliveryStore(impatient).lease({ now: new Date(Date.UTC(2025, 0, 16)), limit: 10, leaseMs: 1000, webhookIds: [webhookId] });
      expect(leased.map((d) => d.eventId)).to.deep.equal([events[1]!.eventId, events[2]!.eventId]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await impatient.end();
    }
  });
});
