/**
 * The lease half of the WebhookDeliveryQueue contract: one worker at a time per delivery (also
 * across instances), takeover of a lease that ran out, records refused from a worker whose lease
 * was taken over, nothing lost on a crash between send and record, and the version order per
 * (endpoint, order). Called by describeWebhookDeliveriesContract.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { newId, type WebhookEvent } from '@storefront/domain/adapter-kit';
import { aWebhookEvent, webhookTime } from '../webhook-builders.js';
import { ids, LEASE_MS, leaseAt, MINUTE_MS, pendingDelivery, type WebhookDeliveryPorts, type WebhookDeliveryStoresUnderTest } from './webhook-delivery-support.js';

export function describeWebhookDeliveryLeases(factory: () => Promise<WebhookDeliveryStoresUnderTest>): void {
  describe('lease', () => {
    it('hands out due deliveries only, oldest due first, at most `limit`, each with a lease', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const events = [2, 0, 1, 5].map((minutes) => aWebhookEvent({ createdAt: webhookTime(minutes * MINUTE_MS) }));
      for (const event of events) await store.queue.enqueue(event, [webhookId]);
      expect(await store.queue.lease(leaseAt(webhookTime(-1), [webhookId]))).to.deep.equal([]);
      const now = webhookTime(2 * MINUTE_MS);
      const leased = await store.queue.lease(leaseAt(now, [webhookId], { limit: 2 }));
      expect(ids(leased)).to.deep.equal([events[1]!.eventId, events[2]!.eventId]);
      for (const delivery of leased) {
        expect(delivery.leaseToken).to.be.a('string').with.length.greaterThan(0);
        expect(delivery.leaseUntil.getTime()).to.equal(now.getTime() + LEASE_MS);
        expect(delivery.status).to.equal('pending');
        expect(delivery.attempts).to.equal(0);
      }
      expect(leased[0]!.leaseToken).not.to.equal(leased[1]!.leaseToken);
      expect(ids(await store.queue.lease(leaseAt(now, [webhookId])))).to.deep.equal([events[0]!.eventId]);
      expect(await store.queue.lease(leaseAt(now, [webhookId]))).to.deep.equal([]);
    });

    it('hands out only the deliveries of the endpoints asked for, less the excluded ones', async () => {
      const { store } = await factory();
      const [on, off, busy] = [newId('whk'), newId('whk'), newId('whk')];
      await store.queue.enqueue(aWebhookEvent(), [on, off, busy]);
      const now = webhookTime(0);
      const leased = await store.queue.lease(leaseAt(now, [on, busy], { excludeWebhookIds: [busy] }));
      expect(leased.map((d) => d.webhookId)).to.deep.equal([on]);
      expect(await store.queue.lease(leaseAt(now, []))).to.deep.equal([]);
      expect((await store.queue.lease(leaseAt(now, [off, busy]))).map((d) => d.webhookId).sort()).to.deep.equal([off, busy].sort());
    });

    it('does not hand out a leased delivery again until its lease runs out; then another worker takes it over', async () => {
      const { store, other } = await factory();
      const webhookId = newId('whk');
      const event = aWebhookEvent();
      await store.queue.enqueue(event, [webhookId]);
      const [first] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      expect(await other.queue.lease(leaseAt(webhookTime(LEASE_MS - 1), [webhookId]))).to.deep.equal([]);
      const [second] = await other.queue.lease(leaseAt(webhookTime(LEASE_MS), [webhookId]));
      expect(second!.deliveryId).to.equal(first!.deliveryId);
      expect(second!.leaseToken).not.to.equal(first!.leaseToken);
      expect(second!.leaseUntil.getTime()).to.equal(LEASE_MS + LEASE_MS + webhookTime(0).getTime());
      const late = await store.queue.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: webhookTime(LEASE_MS + 1), statusCode: 200 });
      expect(late, 'the first worker’s late record').to.equal(false);
      expect((await store.log.get(webhookId, first!.deliveryId))!.status).to.equal('pending');
      const outcome = { kind: 'retry', at: webhookTime(LEASE_MS + 2), nextAttemptAt: webhookTime(LEASE_MS + 5_000), statusCode: 503 } as const;
      expect(await other.queue.record(second!.deliveryId, second!.leaseToken, outcome)).to.equal(true);
      expect((await store.log.get(webhookId, first!.deliveryId))!.attempts).to.equal(1);
    });

    it('loses nothing when a worker stops between send and record: the lease runs out, the same event is leased again', async () => {
      const { store, other } = await factory();
      const webhookId = newId('whk');
      const event = aWebhookEvent();
      await store.queue.enqueue(event, [webhookId]);
      const [sent] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      // The worker sent it and died here: no record.
      const [again] = await other.queue.lease(leaseAt(webhookTime(LEASE_MS + 1), [webhookId]));
      expect(again!.deliveryId).to.equal(sent!.deliveryId);
      expect(again!.eventId).to.equal(event.eventId);
      expect(again!.payload).to.equal(event.payload);
      expect(again!.attempts).to.equal(0);
      expect(await other.queue.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(LEASE_MS + 2), statusCode: 204 })).to.equal(true);
      expect(await store.queue.lease(leaseAt(webhookTime(10 * LEASE_MS), [webhookId]))).to.deep.equal([]);
    });

    it('hands each of 1,000 due deliveries to exactly one of two workers leasing at once, per due time', async function () {
      // 2,000 leases and records on a real server: more than the default time on a busy machine.
      this.timeout(120_000);
      const { store, other } = await factory();
      const webhookIds = Array.from({ length: 10 }, () => newId('whk'));
      for (let i = 0; i < 100; i++) await store.queue.enqueue(aWebhookEvent({ createdAt: webhookTime(i) }), webhookIds);
      const handedOut = new Map<string, number>();
      const drain = async (worker: WebhookDeliveryPorts, now: Date, nextDue: Date): Promise<void> => {
        for (;;) {
          const leased = await worker.queue.lease({ now, limit: 25, leaseMs: 10 * MINUTE_MS, webhookIds });
          if (leased.length === 0) return;
          for (const delivery of leased) handedOut.set(delivery.deliveryId, (handedOut.get(delivery.deliveryId) ?? 0) + 1);
          const outcome = { kind: 'retry', at: now, nextAttemptAt: nextDue, error: 'connection refused' } as const;
          const recorded = await Promise.all(leased.map((delivery) => worker.queue.record(delivery.deliveryId, delivery.leaseToken, outcome)));
          expect(recorded.every((won) => won), 'every record of a lease this worker holds').to.equal(true);
        }
      };
      const due1 = webhookTime(MINUTE_MS);
      const due2 = webhookTime(2 * MINUTE_MS);
      await Promise.all([drain(store, due1, due2), drain(other, due1, due2)]);
      expect(handedOut.size).to.equal(1000);
      expect([...handedOut.values()].every((times) => times === 1), 'each handed out once at the first due time').to.equal(true);
      await Promise.all([drain(store, due2, webhookTime(3 * MINUTE_MS)), drain(other, due2, webhookTime(3 * MINUTE_MS))]);
      expect(handedOut.size).to.equal(1000);
      expect([...handedOut.values()].every((times) => times === 2), 'each handed out once at the second due time').to.equal(true);
    });
  });

  describe('record', () => {
    it('records a delivery: not handed out again, and a second record with the same lease is refused', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const event = aWebhookEvent();
      await store.queue.enqueue(event, [webhookId]);
      const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      const outcome = { kind: 'delivered', at: webhookTime(500), statusCode: 202 } as const;
      expect(await store.queue.record(leased!.deliveryId, leased!.leaseToken, outcome)).to.equal(true);
      const { deliveryId } = leased!;
      expect(await store.log.get(webhookId, deliveryId)).to.deep.equal({
        ...event,
        deliveryId,
        webhookId,
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 202,
        deliveredAt: webhookTime(500),
      });
      expect(await store.queue.record(deliveryId, leased!.leaseToken, outcome)).to.equal(false);
      expect(await store.queue.lease(leaseAt(webhookTime(10 * LEASE_MS), [webhookId]))).to.deep.equal([]);
    });

    it('records a retry: pending again, handed out at the next due time and not before', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const event = aWebhookEvent();
      await store.queue.enqueue(event, [webhookId]);
      const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      const next = webhookTime(5_000);
      expect(await store.queue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'retry', at: webhookTime(10), nextAttemptAt: next, statusCode: 500, error: 'HTTP 500' })).to.equal(true);
      expect(await store.log.get(webhookId, leased!.deliveryId)).to.deep.equal({
        ...pendingDelivery(event, webhookId, leased!.deliveryId),
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: next,
      });
      expect(await store.queue.lease(leaseAt(webhookTime(4_999), [webhookId]))).to.deep.equal([]);
      const [again] = await store.queue.lease(leaseAt(next, [webhookId]));
      expect(again!.attempts).to.equal(1);
      expect(await store.queue.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(5_100), statusCode: 200 })).to.equal(true);
      const delivered = (await store.log.get(webhookId, again!.deliveryId))!;
      expect(delivered.attempts).to.equal(2);
      expect(delivered.lastStatusCode).to.equal(200);
      expect(delivered, 'the last error is this attempt’s').not.to.have.property('lastError');
    });

    it('records a failure for good: failed, never handed out again', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const event = aWebhookEvent();
      await store.queue.enqueue(event, [webhookId]);
      const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      expect(await store.queue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'failed', at: webhookTime(10), error: 'timed out' })).to.equal(true);
      expect(await store.log.get(webhookId, leased!.deliveryId)).to.deep.equal({
        ...event,
        deliveryId: leased!.deliveryId,
        webhookId,
        status: 'failed',
        attempts: 1,
        lastError: 'timed out',
      });
      expect(await store.queue.lease(leaseAt(webhookTime(100 * LEASE_MS), [webhookId]))).to.deep.equal([]);
    });

    it('refuses a record for an unknown delivery or lease token', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      await store.queue.enqueue(aWebhookEvent(), [webhookId]);
      const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
      const outcome = { kind: 'delivered', at: webhookTime(1), statusCode: 200 } as const;
      expect(await store.queue.record(newId('wdl'), leased!.leaseToken, outcome)).to.equal(false);
      expect(await store.queue.record(leased!.deliveryId, 'not-the-token', outcome)).to.equal(false);
      expect((await store.log.get(webhookId, leased!.deliveryId))!.attempts).to.equal(0);
    });
  });

  describe('order per (endpoint, order)', () => {
    async function threeVersions(store: WebhookDeliveryPorts, webhookIds: readonly string[]): Promise<WebhookEvent[]> {
      const orderId = newId('ord');
      const events = [1, 2, 3].map((orderVersion) => aWebhookEvent({ orderId, orderVersion, createdAt: webhookTime(orderVersion) }));
      for (const event of events) await store.queue.enqueue(event, webhookIds);
      return events;
    }

    it('holds a later version while an earlier one is pending, leased or not', async () => {
      const { store, other } = await factory();
      const webhookId = newId('whk');
      const [v1] = await threeVersions(store, [webhookId]);
      const unordered = aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(4) });
      const otherOrder = aWebhookEvent({ orderVersion: 7, createdAt: webhookTime(5) });
      await store.queue.enqueue(unordered, [webhookId]);
      await store.queue.enqueue(otherOrder, [webhookId]);
      const now = webhookTime(MINUTE_MS);
      const [first, ...rest] = await store.queue.lease(leaseAt(now, [webhookId]));
      expect([first!.eventId, ...ids(rest)]).to.deep.equal([v1!.eventId, unordered.eventId, otherOrder.eventId]);
      for (const done of rest) await store.queue.record(done.deliveryId, done.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
      expect(await other.queue.lease(leaseAt(now, [webhookId])), 'v2 while v1 is leased').to.deep.equal([]);
      const retry = { kind: 'retry', at: now, nextAttemptAt: webhookTime(10 * MINUTE_MS), error: 'HTTP 503' } as const;
      expect(await store.queue.record(first!.deliveryId, first!.leaseToken, retry)).to.equal(true);
      expect(await other.queue.lease(leaseAt(webhookTime(5 * MINUTE_MS), [webhookId])), 'v2 while v1 waits for its retry').to.deep.equal([]);
      const [again] = await other.queue.lease(leaseAt(webhookTime(10 * MINUTE_MS), [webhookId]));
      expect(again!.eventId).to.equal(v1!.eventId);
      expect(await store.queue.lease(leaseAt(webhookTime(10 * MINUTE_MS + LEASE_MS - 1), [webhookId]))).to.deep.equal([]);
      expect(ids(await store.queue.lease(leaseAt(webhookTime(10 * MINUTE_MS + LEASE_MS), [webhookId]))), 'v1 taken over, v2 still waits').to.deep.equal([v1!.eventId]);
    });

    it('lets the next version go once the earlier one is delivered or failed', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const [v1, v2, v3] = await threeVersions(store, [webhookId]);
      const now = webhookTime(MINUTE_MS);
      const [first] = await store.queue.lease(leaseAt(now, [webhookId]));
      expect(first!.eventId).to.equal(v1!.eventId);
      await store.queue.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
      const [second, ...none] = await store.queue.lease(leaseAt(now, [webhookId]));
      expect([second!.eventId, ...ids(none)]).to.deep.equal([v2!.eventId]);
      await store.queue.record(second!.deliveryId, second!.leaseToken, { kind: 'failed', at: now, statusCode: 500 });
      expect(ids(await store.queue.lease(leaseAt(now, [webhookId])))).to.deep.equal([v3!.eventId]);
    });

    it('orders each endpoint on its own', async () => {
      const { store } = await factory();
      const [fast, slow] = [newId('whk'), newId('whk')];
      const [v1, v2] = await threeVersions(store, [fast, slow]);
      const now = webhookTime(MINUTE_MS);
      const leased = await store.queue.lease(leaseAt(now, [fast, slow]));
      expect(leased.map((d) => d.eventId)).to.deep.equal([v1!.eventId, v1!.eventId]);
      const fastOne = leased.find((d) => d.webhookId === fast)!;
      await store.queue.record(fastOne.deliveryId, fastOne.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
      const next = await store.queue.lease(leaseAt(now, [fast, slow]));
      expect(next.map((d) => [d.webhookId, d.eventId])).to.deep.equal([[fast, v2!.eventId]]);
    });
  });
}
