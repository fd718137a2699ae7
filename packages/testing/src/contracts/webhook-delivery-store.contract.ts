/**
 * What every WebhookDeliveryStore must do: idempotent enqueue, leases that hand each due delivery
 * to one worker at a time (also across instances), takeover of a lease that ran out, records
 * refused from a worker whose lease was taken over, the per-(endpoint, order) version order,
 * listing, retry, removal and stats. Time is passed in (`now`): no test sleeps.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { LeaseRequest, WebhookDelivery, WebhookDeliveryStore, WebhookEvent } from '@storefront/domain';
import { newId } from '@storefront/domain';
import { aWebhookEvent, webhookTime } from '../webhook-builders.js';

export interface WebhookDeliveryStoresUnderTest {
  /** An empty store. */
  readonly store: WebhookDeliveryStore;
  /** Another instance over the same data (its own connections, as another process has); memory: the same store. */
  readonly other: WebhookDeliveryStore;
}

const LEASE_MS = 30_000;
const MINUTE_MS = 60_000;
const HOUR = 3_600_000;

function leaseAt(now: Date, webhookIds: readonly string[], more: Partial<LeaseRequest> = {}): LeaseRequest {
  return { now, limit: 100, leaseMs: LEASE_MS, webhookIds, ...more };
}

/** What `enqueue` stores for `event` and one endpoint. */
function pendingDelivery(event: WebhookEvent, webhookId: string, deliveryId: string): WebhookDelivery {
  return { ...event, deliveryId, webhookId, status: 'pending', attempts: 0, nextAttemptAt: event.createdAt };
}

function ids(deliveries: readonly WebhookDelivery[]): string[] {
  return deliveries.map((d) => d.eventId);
}

export function describeWebhookDeliveryStoreContract(name: string, factory: () => Promise<WebhookDeliveryStoresUnderTest>): void {
  describe(`${name} (WebhookDeliveryStore contract)`, () => {
    describe('enqueue', () => {
      it('stores one pending delivery per endpoint, due when the event was made', async () => {
        const { store } = await factory();
        const [a, b] = [newId('whk'), newId('whk')];
        const event = aWebhookEvent({ orderVersion: 3 });
        await store.enqueue(event, [a, b]);
        for (const webhookId of [a, b]) {
          const page = await store.list(webhookId, { page: 1, limit: 10 });
          expect(page.total).to.equal(1);
          const delivery = page.items[0]!;
          expect(delivery.deliveryId).to.match(/^wdl_[0-9a-z]{20}$/);
          expect(delivery).to.deep.equal(pendingDelivery(event, webhookId, delivery.deliveryId));
          expect(await store.get(webhookId, delivery.deliveryId)).to.deep.equal(delivery);
        }
        const first = (await store.list(a, { page: 1, limit: 10 })).items[0]!;
        expect(await store.get(b, first.deliveryId), 'another endpoint’s delivery').to.equal(null);
      });

      it('keeps a test event without an order as it is', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent({ type: 'webhook.test' });
        await store.enqueue(event, [webhookId]);
        const delivery = (await store.list(webhookId, { page: 1, limit: 10 })).items[0]!;
        expect(delivery).to.deep.equal(pendingDelivery(event, webhookId, delivery.deliveryId));
        expect(delivery).not.to.have.property('orderId');
      });

      it('is idempotent: an event enqueued again (also at once, also from another instance) is stored once, as first stored', async () => {
        const { store, other } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.enqueue(event, [webhookId]);
        const again = { ...event, payload: '{"type":"order.status","changed":true}' };
        await Promise.all([store.enqueue(again, [webhookId]), other.enqueue(again, [webhookId]), store.enqueue(event, [webhookId, newId('whk')])]);
        const page = await store.list(webhookId, { page: 1, limit: 10 });
        expect(page.total).to.equal(1);
        expect(page.items[0]!.payload).to.equal(event.payload);
        expect((await store.stats()).pending).to.equal(2);
      });

      it('enqueues nothing for no endpoint', async () => {
        const { store } = await factory();
        await store.enqueue(aWebhookEvent(), []);
        expect((await store.stats()).pending).to.equal(0);
      });
    });

    describe('lease', () => {
      it('hands out due deliveries only, oldest due first, at most `limit`, each with a lease', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const events = [2, 0, 1, 5].map((minutes) => aWebhookEvent({ createdAt: webhookTime(minutes * MINUTE_MS) }));
        for (const event of events) await store.enqueue(event, [webhookId]);
        expect(await store.lease(leaseAt(webhookTime(-1), [webhookId]))).to.deep.equal([]);
        const now = webhookTime(2 * MINUTE_MS);
        const leased = await store.lease(leaseAt(now, [webhookId], { limit: 2 }));
        expect(ids(leased)).to.deep.equal([events[1]!.eventId, events[2]!.eventId]);
        for (const delivery of leased) {
          expect(delivery.leaseToken).to.be.a('string').with.length.greaterThan(0);
          expect(delivery.leaseUntil.getTime()).to.equal(now.getTime() + LEASE_MS);
          expect(delivery.status).to.equal('pending');
          expect(delivery.attempts).to.equal(0);
        }
        expect(leased[0]!.leaseToken).not.to.equal(leased[1]!.leaseToken);
        expect(ids(await store.lease(leaseAt(now, [webhookId])))).to.deep.equal([events[0]!.eventId]);
        expect(await store.lease(leaseAt(now, [webhookId]))).to.deep.equal([]);
      });

      it('hands out only the deliveries of the endpoints asked for, less the excluded ones', async () => {
        const { store } = await factory();
        const [on, off, busy] = [newId('whk'), newId('whk'), newId('whk')];
        await store.enqueue(aWebhookEvent(), [on, off, busy]);
        const now = webhookTime(0);
        const leased = await store.lease(leaseAt(now, [on, busy], { excludeWebhookIds: [busy] }));
        expect(leased.map((d) => d.webhookId)).to.deep.equal([on]);
        expect(await store.lease(leaseAt(now, []))).to.deep.equal([]);
        expect((await store.lease(leaseAt(now, [off, busy]))).map((d) => d.webhookId).sort()).to.deep.equal([off, busy].sort());
      });

      it('does not hand out a leased delivery again until its lease runs out; then another worker takes it over', async () => {
        const { store, other } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.enqueue(event, [webhookId]);
        const [first] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        expect(await other.lease(leaseAt(webhookTime(LEASE_MS - 1), [webhookId]))).to.deep.equal([]);
        const [second] = await other.lease(leaseAt(webhookTime(LEASE_MS), [webhookId]));
        expect(second!.deliveryId).to.equal(first!.deliveryId);
        expect(second!.leaseToken).not.to.equal(first!.leaseToken);
        expect(second!.leaseUntil.getTime()).to.equal(LEASE_MS + LEASE_MS + webhookTime(0).getTime());
        const late = await store.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: webhookTime(LEASE_MS + 1), statusCode: 200 });
        expect(late, 'the first worker’s late record').to.equal(false);
        expect((await store.get(webhookId, first!.deliveryId))!.status).to.equal('pending');
        const outcome = { kind: 'retry', at: webhookTime(LEASE_MS + 2), nextAttemptAt: webhookTime(LEASE_MS + 5_000), statusCode: 503 } as const;
        expect(await other.record(second!.deliveryId, second!.leaseToken, outcome)).to.equal(true);
        expect((await store.get(webhookId, first!.deliveryId))!.attempts).to.equal(1);
      });

      it('loses nothing when a worker stops between send and record: the lease runs out, the same event is leased again', async () => {
        const { store, other } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.enqueue(event, [webhookId]);
        const [sent] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        // The worker sent it and died here: no record.
        const [again] = await other.lease(leaseAt(webhookTime(LEASE_MS + 1), [webhookId]));
        expect(again!.deliveryId).to.equal(sent!.deliveryId);
        expect(again!.eventId).to.equal(event.eventId);
        expect(again!.payload).to.equal(event.payload);
        expect(again!.attempts).to.equal(0);
        expect(await other.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(LEASE_MS + 2), statusCode: 204 })).to.equal(true);
        expect(await store.lease(leaseAt(webhookTime(10 * LEASE_MS), [webhookId]))).to.deep.equal([]);
      });

      it('hands each of 1,000 due deliveries to exactly one of two workers leasing at once, per due time', async function () {
        // 2,000 leases and records on a real server: more than the default time on a busy machine.
        this.timeout(120_000);
        const { store, other } = await factory();
        const webhookIds = Array.from({ length: 10 }, () => newId('whk'));
        for (let i = 0; i < 100; i++) await store.enqueue(aWebhookEvent({ createdAt: webhookTime(i) }), webhookIds);
        const handedOut = new Map<string, number>();
        const drain = async (worker: WebhookDeliveryStore, now: Date, nextDue: Date): Promise<void> => {
          for (;;) {
            const leased = await worker.lease({ now, limit: 25, leaseMs: 10 * MINUTE_MS, webhookIds });
            if (leased.length === 0) return;
            for (const delivery of leased) handedOut.set(delivery.deliveryId, (handedOut.get(delivery.deliveryId) ?? 0) + 1);
            const outcome = { kind: 'retry', at: now, nextAttemptAt: nextDue, error: 'connection refused' } as const;
            const recorded = await Promise.all(leased.map((delivery) => worker.record(delivery.deliveryId, delivery.leaseToken, outcome)));
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
        await store.enqueue(event, [webhookId]);
        const [leased] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        const outcome = { kind: 'delivered', at: webhookTime(500), statusCode: 202 } as const;
        expect(await store.record(leased!.deliveryId, leased!.leaseToken, outcome)).to.equal(true);
        const { deliveryId } = leased!;
        expect(await store.get(webhookId, deliveryId)).to.deep.equal({
          ...event,
          deliveryId,
          webhookId,
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 202,
          deliveredAt: webhookTime(500),
        });
        expect(await store.record(deliveryId, leased!.leaseToken, outcome)).to.equal(false);
        expect(await store.lease(leaseAt(webhookTime(10 * LEASE_MS), [webhookId]))).to.deep.equal([]);
      });

      it('records a retry: pending again, handed out at the next due time and not before', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.enqueue(event, [webhookId]);
        const [leased] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        const next = webhookTime(5_000);
        expect(await store.record(leased!.deliveryId, leased!.leaseToken, { kind: 'retry', at: webhookTime(10), nextAttemptAt: next, statusCode: 500, error: 'HTTP 500' })).to.equal(true);
        expect(await store.get(webhookId, leased!.deliveryId)).to.deep.equal({
          ...pendingDelivery(event, webhookId, leased!.deliveryId),
          attempts: 1,
          lastStatusCode: 500,
          lastError: 'HTTP 500',
          nextAttemptAt: next,
        });
        expect(await store.lease(leaseAt(webhookTime(4_999), [webhookId]))).to.deep.equal([]);
        const [again] = await store.lease(leaseAt(next, [webhookId]));
        expect(again!.attempts).to.equal(1);
        expect(await store.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(5_100), statusCode: 200 })).to.equal(true);
        const delivered = (await store.get(webhookId, again!.deliveryId))!;
        expect(delivered.attempts).to.equal(2);
        expect(delivered.lastStatusCode).to.equal(200);
        expect(delivered, 'the last error is this attempt’s').not.to.have.property('lastError');
      });

      it('records a failure for good: failed, never handed out again', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.enqueue(event, [webhookId]);
        const [leased] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        expect(await store.record(leased!.deliveryId, leased!.leaseToken, { kind: 'failed', at: webhookTime(10), error: 'timed out' })).to.equal(true);
        expect(await store.get(webhookId, leased!.deliveryId)).to.deep.equal({
          ...event,
          deliveryId: leased!.deliveryId,
          webhookId,
          status: 'failed',
          attempts: 1,
          lastError: 'timed out',
        });
        expect(await store.lease(leaseAt(webhookTime(100 * LEASE_MS), [webhookId]))).to.deep.equal([]);
      });

      it('refuses a record for an unknown delivery or lease token', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        await store.enqueue(aWebhookEvent(), [webhookId]);
        const [leased] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        const outcome = { kind: 'delivered', at: webhookTime(1), statusCode: 200 } as const;
        expect(await store.record(newId('wdl'), leased!.leaseToken, outcome)).to.equal(false);
        expect(await store.record(leased!.deliveryId, 'not-the-token', outcome)).to.equal(false);
        expect((await store.get(webhookId, leased!.deliveryId))!.attempts).to.equal(0);
      });
    });

    describe('order per (endpoint, order)', () => {
      async function threeVersions(store: WebhookDeliveryStore, webhookIds: readonly string[]): Promise<WebhookEvent[]> {
        const orderId = newId('ord');
        const events = [1, 2, 3].map((orderVersion) => aWebhookEvent({ orderId, orderVersion, createdAt: webhookTime(orderVersion) }));
        for (const event of events) await store.enqueue(event, webhookIds);
        return events;
      }

      it('holds a later version while an earlier one is pending, leased or not', async () => {
        const { store, other } = await factory();
        const webhookId = newId('whk');
        const [v1] = await threeVersions(store, [webhookId]);
        const unordered = aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(4) });
        const otherOrder = aWebhookEvent({ orderVersion: 7, createdAt: webhookTime(5) });
        await store.enqueue(unordered, [webhookId]);
        await store.enqueue(otherOrder, [webhookId]);
        const now = webhookTime(MINUTE_MS);
        const [first, ...rest] = await store.lease(leaseAt(now, [webhookId]));
        expect([first!.eventId, ...ids(rest)]).to.deep.equal([v1!.eventId, unordered.eventId, otherOrder.eventId]);
        for (const done of rest) await store.record(done.deliveryId, done.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
        expect(await other.lease(leaseAt(now, [webhookId])), 'v2 while v1 is leased').to.deep.equal([]);
        const retry = { kind: 'retry', at: now, nextAttemptAt: webhookTime(10 * MINUTE_MS), error: 'HTTP 503' } as const;
        expect(await store.record(first!.deliveryId, first!.leaseToken, retry)).to.equal(true);
        expect(await other.lease(leaseAt(webhookTime(5 * MINUTE_MS), [webhookId])), 'v2 while v1 waits for its retry').to.deep.equal([]);
        const [again] = await other.lease(leaseAt(webhookTime(10 * MINUTE_MS), [webhookId]));
        expect(again!.eventId).to.equal(v1!.eventId);
        expect(await store.lease(leaseAt(webhookTime(10 * MINUTE_MS + LEASE_MS - 1), [webhookId]))).to.deep.equal([]);
        expect(ids(await store.lease(leaseAt(webhookTime(10 * MINUTE_MS + LEASE_MS), [webhookId]))), 'v1 taken over, v2 still waits').to.deep.equal([v1!.eventId]);
      });

      it('lets the next version go once the earlier one is delivered or failed', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const [v1, v2, v3] = await threeVersions(store, [webhookId]);
        const now = webhookTime(MINUTE_MS);
        const [first] = await store.lease(leaseAt(now, [webhookId]));
        expect(first!.eventId).to.equal(v1!.eventId);
        await store.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
        const [second, ...none] = await store.lease(leaseAt(now, [webhookId]));
        expect([second!.eventId, ...ids(none)]).to.deep.equal([v2!.eventId]);
        await store.record(second!.deliveryId, second!.leaseToken, { kind: 'failed', at: now, statusCode: 500 });
        expect(ids(await store.lease(leaseAt(now, [webhookId])))).to.deep.equal([v3!.eventId]);
      });

      it('orders each endpoint on its own', async () => {
        const { store } = await factory();
        const [fast, slow] = [newId('whk'), newId('whk')];
        const [v1, v2] = await threeVersions(store, [fast, slow]);
        const now = webhookTime(MINUTE_MS);
        const leased = await store.lease(leaseAt(now, [fast, slow]));
        expect(leased.map((d) => d.eventId)).to.deep.equal([v1!.eventId, v1!.eventId]);
        const fastOne = leased.find((d) => d.webhookId === fast)!;
        await store.record(fastOne.deliveryId, fastOne.leaseToken, { kind: 'delivered', at: now, statusCode: 200 });
        const next = await store.lease(leaseAt(now, [fast, slow]));
        expect(next.map((d) => [d.webhookId, d.eventId])).to.deep.equal([[fast, v2!.eventId]]);
      });
    });

    describe('list', () => {
      it('pages an endpoint’s deliveries newest first, optionally of one status', async () => {
        const { store } = await factory();
        const [webhookId, otherId] = [newId('whk'), newId('whk')];
        const events = Array.from({ length: 5 }, (_, i) => aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(i * 1000) }));
        for (const event of events) await store.enqueue(event, [webhookId, otherId]);
        const newest = [...events].reverse().map((e) => e.eventId);
        const first = await store.list(webhookId, { page: 1, limit: 2 });
        expect(ids(first.items)).to.deep.equal(newest.slice(0, 2));
        expect(first).to.include({ total: 5, page: 1, perPage: 2, nextPage: 2 });
        const last = await store.list(webhookId, { page: 3, limit: 2 });
        expect(ids(last.items)).to.deep.equal(newest.slice(4));
        expect(last.nextPage).to.equal(null);
        expect((await store.list(webhookId, { page: 4, limit: 2 })).items).to.deep.equal([]);

        const leased = await store.lease(leaseAt(webhookTime(1000), [webhookId]));
        await store.record(leased[0]!.deliveryId, leased[0]!.leaseToken, { kind: 'delivered', at: webhookTime(1001), statusCode: 200 });
        await store.record(leased[1]!.deliveryId, leased[1]!.leaseToken, { kind: 'failed', at: webhookTime(1001), statusCode: 400 });
        const delivered = await store.list(webhookId, { page: 1, limit: 10, status: 'delivered' });
        expect(ids(delivered.items)).to.deep.equal([events[0]!.eventId]);
        expect(delivered.total).to.equal(1);
        expect(ids((await store.list(webhookId, { page: 1, limit: 10, status: 'failed' })).items)).to.deep.equal([events[1]!.eventId]);
        const pending = await store.list(webhookId, { page: 1, limit: 2, status: 'pending' });
        expect(ids(pending.items)).to.deep.equal(newest.slice(0, 2));
        expect(pending).to.include({ total: 3, nextPage: 2 });
        expect((await store.list(otherId, { page: 1, limit: 10, status: 'pending' })).total).to.equal(5);
        expect((await store.list(newId('whk'), { page: 1, limit: 10 })).total).to.equal(0);
      });
    });

    describe('retry', () => {
      it('makes a failed or delivered delivery pending and due now, attempts kept', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const [failing, delivered] = [aWebhookEvent({ type: 'webhook.test' }), aWebhookEvent({ type: 'webhook.test' })];
        await store.enqueue(failing, [webhookId]);
        await store.enqueue(delivered, [webhookId]);
        for (const leased of await store.lease(leaseAt(webhookTime(0), [webhookId]))) {
          const outcome =
            leased.eventId === failing.eventId
              ? ({ kind: 'failed', at: webhookTime(1), error: 'timed out' } as const)
              : ({ kind: 'delivered', at: webhookTime(1), statusCode: 200 } as const);
          await store.record(leased.deliveryId, leased.leaseToken, outcome);
        }
        const now = webhookTime(HOUR);
        for (const delivery of (await store.list(webhookId, { page: 1, limit: 10 })).items) {
          expect(await store.retry(webhookId, delivery.deliveryId, now)).to.equal(true);
          const retried = (await store.get(webhookId, delivery.deliveryId))!;
          expect(retried).to.include({ status: 'pending', attempts: 1 });
          expect(retried.nextAttemptAt).to.deep.equal(now);
          expect(retried).not.to.have.property('deliveredAt');
        }
        expect(await store.lease(leaseAt(webhookTime(HOUR - 1), [webhookId]))).to.deep.equal([]);
        expect(ids(await store.lease(leaseAt(now, [webhookId]))).sort()).to.deep.equal([failing.eventId, delivered.eventId].sort());
        expect((await store.stats()).pending).to.equal(2);
      });

      it('makes a pending delivery due now, and keeps a lease that holds', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        await store.enqueue(aWebhookEvent({ type: 'webhook.test' }), [webhookId]);
        const [leased] = await store.lease(leaseAt(webhookTime(0), [webhookId]));
        await store.record(leased!.deliveryId, leased!.leaseToken, { kind: 'retry', at: webhookTime(1), nextAttemptAt: webhookTime(HOUR), error: 'x' });
        expect(await store.retry(webhookId, leased!.deliveryId, webhookTime(MINUTE_MS))).to.equal(true);
        const [again] = await store.lease(leaseAt(webhookTime(MINUTE_MS), [webhookId]));
        expect(again!.deliveryId).to.equal(leased!.deliveryId);
        expect(await store.retry(webhookId, leased!.deliveryId, webhookTime(MINUTE_MS + 1))).to.equal(true);
        expect(await store.lease(leaseAt(webhookTime(MINUTE_MS + 1), [webhookId])), 'still leased').to.deep.equal([]);
        expect(await store.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(MINUTE_MS + 2), statusCode: 200 })).to.equal(true);
      });

      it('answers false for an unknown delivery or another endpoint’s', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        await store.enqueue(aWebhookEvent(), [webhookId]);
        const { deliveryId } = (await store.list(webhookId, { page: 1, limit: 1 })).items[0]!;
        expect(await store.retry(webhookId, newId('wdl'), webhookTime(0))).to.equal(false);
        expect(await store.retry(newId('whk'), deliveryId, webhookTime(0))).to.equal(false);
      });
    });

    describe('removeEndpoint and stats', () => {
      it('removes every delivery of one endpoint and only those', async () => {
        const { store } = await factory();
        const [gone, kept] = [newId('whk'), newId('whk')];
        const event = aWebhookEvent();
        await store.enqueue(event, [gone, kept]);
        await store.enqueue(aWebhookEvent(), [gone]);
        const goneId = (await store.list(gone, { page: 1, limit: 1 })).items[0]!.deliveryId;
        await store.removeEndpoint(gone);
        expect((await store.list(gone, { page: 1, limit: 10 })).total).to.equal(0);
        expect(await store.get(gone, goneId)).to.equal(null);
        expect(await store.lease(leaseAt(webhookTime(HOUR), [gone]))).to.deep.equal([]);
        expect((await store.list(kept, { page: 1, limit: 10 })).total).to.equal(1);
        expect((await store.stats()).pending).to.equal(1);
      });

      it('counts pending deliveries and tells when the oldest was made', async () => {
        const { store } = await factory();
        expect(await store.stats()).to.deep.equal({ pending: 0 });
        const webhookId = newId('whk');
        const [old, young] = [aWebhookEvent({ createdAt: webhookTime(0) }), aWebhookEvent({ createdAt: webhookTime(MINUTE_MS) })];
        await store.enqueue(young, [webhookId]);
        await store.enqueue(old, [webhookId, newId('whk')]);
        expect(await store.stats()).to.deep.equal({ pending: 3, oldestPendingAt: webhookTime(0) });
        for (const leased of await store.lease(leaseAt(webhookTime(HOUR), [webhookId]))) {
          if (leased.eventId === old.eventId) await store.record(leased.deliveryId, leased.leaseToken, { kind: 'delivered', at: webhookTime(HOUR), statusCode: 200 });
        }
        expect((await store.stats()).pending, 'leased ones are still pending').to.equal(2);
      });
    });
  });
}
