/**
 * The webhook store contracts on a throwaway database. The "other instance" of the delivery store
 * has its own pool: its lease statements run on other connections, as another process's would.
 * Then what only PostgreSQL can show: a lease skips the rows another worker is locking instead of
 * waiting for them, and rows held back by an earlier version are not read again at every lease.
 */
import { aWebhookEvent, describeWebhookDeliveriesContract, describeWebhookEndpointStoreContract } from '@storefront/testing';
import { newId } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import pg from 'pg';
import { PostgresWebhookDeliveryLog, PostgresWebhookDeliveryQueue, PostgresWebhookDeliveryUpkeep } from '../src/index.js';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('Postgres webhook stores', () => {
  const { adapters, database } = usePostgresAdapters('storefront_pg_webhooks');
  let otherPool: pg.Pool | undefined;
  before(() => {
    otherPool = new pg.Pool({ connectionString: database().url, max: 4 }).on('error', () => undefined);
    otherPool.on('error', () => undefined);
  });
  after(async () => {
    await otherPool?.end();
  });

  describeWebhookEndpointStoreContract('PostgresWebhookEndpointStore', async () => adapters().webhookEndpoints);
  describeWebhookDeliveriesContract('PostgresWebhookDelivery{Queue,Log,Upkeep}', async () => {
    await database().pool.query('TRUNCATE webhook_deliveries');
    const { webhookDeliveryQueue: queue, webhookDeliveryLog: log, webhookDeliveryUpkeep: upkeep } = adapters();
    const pool = otherPool!;
    const other = { queue: new PostgresWebhookDeliveryQueue(pool), log: new PostgresWebhookDeliveryLog(pool), upkeep: new PostgresWebhookDeliveryUpkeep(pool) };
    return { store: { queue, log, upkeep }, other };
  });

  it('leases around the rows another worker is locking, without waiting for it', async () => {
    const webhookId = newId('whk');
    const events = [1, 2, 3].map((i) => aWebhookEvent({ type: 'webhook.test', createdAt: new Date(Date.UTC(2025, 0, 15, 12, 0, i)) }));
    for (const event of events) await adapters().webhookDeliveryQueue.enqueue(event, [webhookId]);
    // A worker that waited on the lock would fail after a second (lock_timeout), not hang the test.
    const impatient = new pg.Pool({ connectionString: database().url, max: 1, options: '-c lock_timeout=1000' }).on('error', () => undefined);
    const holder = await otherPool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1 FOR UPDATE', [events[0]!.eventId]);
      const leased = await new PostgresWebhookDeliveryQueue(impatient).lease({ now: new Date(Date.UTC(2025, 0, 16)), limit: 10, leaseMs: 1000, webhookIds: [webhookId] });
      expect(leased.map((d) => d.eventId)).to.deep.equal([events[1]!.eventId, events[2]!.eventId]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await impatient.end();
    }
  });

  describe('deliveries held back by an earlier version', () => {
    const minute = 60_000;
    const t0 = Date.UTC(2025, 0, 20, 12, 0, 0);
    const at = (ms: number): Date => new Date(t0 + ms);

    /** `orders` orders whose version 1 waits for a retry an hour away, each with a version 2 due now (held back). */
    async function heldBehindRetries(webhookId: string, orders: number): Promise<string[]> {
      const store = adapters().webhookDeliveryQueue;
      const held: string[] = [];
      for (let i = 0; i < orders; i++) {
        const orderId = newId('ord');
        await store.enqueue(aWebhookEvent({ orderId, orderVersion: 1, createdAt: at(i) }), [webhookId]);
        const v2 = aWebhookEvent({ orderId, orderVersion: 2, createdAt: at(i) });
        await store.enqueue(v2, [webhookId]);
        held.push(v2.eventId);
      }
      await database().pool.query(
        "UPDATE webhook_deliveries SET next_attempt_at = $2, ready_at = $2, attempts = 1 WHERE webhook_id = $1 AND order_version = 1",
        [webhookId, at(60 * minute)],
      );
      return held;
    }

    async function readyAt(eventIds: readonly string[]): Promise<number[]> {
      const result = await database().pool.query<{ ready_at: Date }>('SELECT ready_at FROM webhook_deliveries WHERE event_id = ANY($1) ORDER BY event_id', [eventIds]);
      return result.rows.map((row) => row.ready_at.getTime());
    }

    it('leases a due delivery behind more held-back ones than a lease reads at once', async () => {
      const webhookId = newId('whk');
      await heldBehindRetries(webhookId, 300);
      const free = aWebhookEvent({ type: 'webhook.test', createdAt: at(minute) });
      await adapters().webhookDeliveryQueue.enqueue(free, [webhookId]);
      const leased = await adapters().webhookDeliveryQueue.lease({ now: at(2 * minute), limit: 10, leaseMs: 30_000, webhookIds: [webhookId] });
      expect(leased.map((d) => d.eventId)).to.deep.equal([free.eventId]);
    });

    it('leaves a held-back delivery out of the scan for five minutes, and back at its due time once the earlier one is delivered', async () => {
      const webhookId = newId('whk');
      const [held] = await heldBehindRetries(webhookId, 1);
      const store = adapters().webhookDeliveryQueue;
      const now = at(2 * minute);
      expect(await store.lease({ now, limit: 10, leaseMs: 30_000, webhookIds: [webhookId] })).to.deep.equal([]);
      expect(await readyAt([held!])).to.deep.equal([now.getTime() + 5 * minute]);
      const [first] = await store.lease({ now: at(60 * minute), limit: 10, leaseMs: 30_000, webhookIds: [webhookId] });
      expect(first!.orderVersion).to.equal(1);
      expect(await store.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: at(60 * minute), statusCode: 200 })).to.equal(true);
      expect(await readyAt([held!]), 'back at its own due time').to.deep.equal([at(0).getTime()]);
      const [next] = await store.lease({ now: at(60 * minute), limit: 10, leaseMs: 30_000, webhookIds: [webhookId] });
      expect(next!.eventId).to.equal(held);
    });
  });
});
