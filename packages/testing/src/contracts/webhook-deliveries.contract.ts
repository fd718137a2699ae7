/**
 * What the webhook delivery ports of every adapter do together (WebhookDeliveryQueue,
 * WebhookDeliveryLog and WebhookDeliveryUpkeep over the same data; most tests need all three):
 * idempotent enqueue, leases that hand each due delivery to one worker at a time (also across
 * instances), takeover of a lease that ran out, records refused from a worker whose lease was
 * taken over, the per-(endpoint, order) version order, listing, retry, removal and stats. Time is passed in (`now`): no test sleeps.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { newId } from '@storefront/domain/adapter-kit';
import { aWebhookEvent, webhookTime } from '../webhook-builders.js';
import { describeWebhookDeliveryLeases } from './webhook-delivery-leases.contract.js';
import { describeWebhookDeliveryRetention } from './webhook-delivery-retention.contract.js';
import { HOUR, ids, leaseAt, MINUTE_MS, pendingDelivery, type WebhookDeliveryStoresUnderTest } from './webhook-delivery-support.js';

export type { WebhookDeliveryPorts, WebhookDeliveryStoresUnderTest } from './webhook-delivery-support.js';

export function describeWebhookDeliveriesContract(name: string, factory: () => Promise<WebhookDeliveryStoresUnderTest>): void {
  describe(`${name} (WebhookDeliveryQueue, WebhookDeliveryLog and WebhookDeliveryUpkeep contract)`, () => {
    describe('rewritePayload', () => {
      it("changes the event's body at every endpoint, whatever its status, and nothing else", async () => {
        const { store, other } = await factory();
        const [a, b] = [newId('whk'), newId('whk')];
        const event = aWebhookEvent({ createdAt: webhookTime(0) });
        const untouched = aWebhookEvent({ createdAt: webhookTime(0) });
        await store.queue.enqueue(event, [a, b]);
        await store.queue.enqueue(untouched, [a]);
        const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [b], { limit: 1 }));
        expect(leased!.eventId).to.equal(event.eventId);
        await store.queue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'delivered', at: webhookTime(1000), statusCode: 200 });
        const before = [...(await store.log.list(a, { page: 1, limit: 10 })).items, ...(await store.log.list(b, { page: 1, limit: 10 })).items];
        const payload = '{"type":"order.placed","data":{"erased":true}}';
        await other.upkeep.rewritePayload(event.eventId, payload);
        await store.upkeep.rewritePayload(event.eventId, payload);
        await store.upkeep.rewritePayload('evt_none_1', payload);
        const after = [...(await store.log.list(a, { page: 1, limit: 10 })).items, ...(await store.log.list(b, { page: 1, limit: 10 })).items];
        expect(after).to.deep.equal(before.map((delivery) => (delivery.eventId === event.eventId ? { ...delivery, payload } : delivery)));
        expect(after.filter((delivery) => delivery.payload === payload)).to.have.length(2);
      });
    });

    describe('enqueue', () => {
      it('stores one pending delivery per endpoint, due when the event was made', async () => {
        const { store } = await factory();
        const [a, b] = [newId('whk'), newId('whk')];
        const event = aWebhookEvent({ orderVersion: 3 });
        await store.queue.enqueue(event, [a, b]);
        for (const webhookId of [a, b]) {
          const page = await store.log.list(webhookId, { page: 1, limit: 10 });
          expect(page.total).to.equal(1);
          const delivery = page.items[0]!;
          expect(delivery.deliveryId).to.match(/^wdl_[0-9a-z]{20}$/);
          expect(delivery).to.deep.equal(pendingDelivery(event, webhookId, delivery.deliveryId));
          expect(await store.log.get(webhookId, delivery.deliveryId)).to.deep.equal(delivery);
        }
        const first = (await store.log.list(a, { page: 1, limit: 10 })).items[0]!;
        expect(await store.log.get(b, first.deliveryId), 'another endpoint’s delivery').to.equal(null);
      });

      it('keeps a test event without an order as it is', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent({ type: 'webhook.test' });
        await store.queue.enqueue(event, [webhookId]);
        const delivery = (await store.log.list(webhookId, { page: 1, limit: 10 })).items[0]!;
        expect(delivery).to.deep.equal(pendingDelivery(event, webhookId, delivery.deliveryId));
        expect(delivery).not.to.have.property('orderId');
      });

      it('is idempotent: an event enqueued again (also at once, also from another instance) is stored once, as first stored', async () => {
        const { store, other } = await factory();
        const webhookId = newId('whk');
        const event = aWebhookEvent();
        await store.queue.enqueue(event, [webhookId]);
        const again = { ...event, payload: '{"type":"order.status","changed":true}' };
        await Promise.all([store.queue.enqueue(again, [webhookId]), other.queue.enqueue(again, [webhookId]), store.queue.enqueue(event, [webhookId, newId('whk')])]);
        const page = await store.log.list(webhookId, { page: 1, limit: 10 });
        expect(page.total).to.equal(1);
        expect(page.items[0]!.payload).to.equal(event.payload);
        expect((await store.queue.stats()).pending).to.equal(2);
      });

      it('enqueues nothing for no endpoint', async () => {
        const { store } = await factory();
        await store.queue.enqueue(aWebhookEvent(), []);
        expect((await store.queue.stats()).pending).to.equal(0);
      });
    });

    describeWebhookDeliveryLeases(factory);
    describeWebhookDeliveryRetention(factory);

    describe('list', () => {
      it('pages an endpoint’s deliveries newest first, optionally of one status', async () => {
        const { store } = await factory();
        const [webhookId, otherId] = [newId('whk'), newId('whk')];
        const events = Array.from({ length: 5 }, (_, i) => aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(i * 1000) }));
        for (const event of events) await store.queue.enqueue(event, [webhookId, otherId]);
        const newest = [...events].reverse().map((e) => e.eventId);
        const first = await store.log.list(webhookId, { page: 1, limit: 2 });
        expect(ids(first.items)).to.deep.equal(newest.slice(0, 2));
        expect(first).to.include({ total: 5, page: 1, perPage: 2, nextPage: 2 });
        const last = await store.log.list(webhookId, { page: 3, limit: 2 });
        expect(ids(last.items)).to.deep.equal(newest.slice(4));
        expect(last.nextPage).to.equal(null);
        expect((await store.log.list(webhookId, { page: 4, limit: 2 })).items).to.deep.equal([]);

        const leased = await store.queue.lease(leaseAt(webhookTime(1000), [webhookId]));
        await store.queue.record(leased[0]!.deliveryId, leased[0]!.leaseToken, { kind: 'delivered', at: webhookTime(1001), statusCode: 200 });
        await store.queue.record(leased[1]!.deliveryId, leased[1]!.leaseToken, { kind: 'failed', at: webhookTime(1001), statusCode: 400 });
        const delivered = await store.log.list(webhookId, { page: 1, limit: 10, status: 'delivered' });
        expect(ids(delivered.items)).to.deep.equal([events[0]!.eventId]);
        expect(delivered.total).to.equal(1);
        expect(ids((await store.log.list(webhookId, { page: 1, limit: 10, status: 'failed' })).items)).to.deep.equal([events[1]!.eventId]);
        const pending = await store.log.list(webhookId, { page: 1, limit: 2, status: 'pending' });
        expect(ids(pending.items)).to.deep.equal(newest.slice(0, 2));
        expect(pending).to.include({ total: 3, nextPage: 2 });
        expect((await store.log.list(otherId, { page: 1, limit: 10, status: 'pending' })).total).to.equal(5);
        expect((await store.log.list(newId('whk'), { page: 1, limit: 10 })).total).to.equal(0);
      });
    });

    describe('retry', () => {
      it('makes a failed or delivered delivery pending and due now, attempts kept', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        const [failing, delivered] = [aWebhookEvent({ type: 'webhook.test' }), aWebhookEvent({ type: 'webhook.test' })];
        await store.queue.enqueue(failing, [webhookId]);
        await store.queue.enqueue(delivered, [webhookId]);
        for (const leased of await store.queue.lease(leaseAt(webhookTime(0), [webhookId]))) {
          const outcome =
            leased.eventId === failing.eventId
              ? ({ kind: 'failed', at: webhookTime(1), error: 'timed out' } as const)
              : ({ kind: 'delivered', at: webhookTime(1), statusCode: 200 } as const);
          await store.queue.record(leased.deliveryId, leased.leaseToken, outcome);
        }
        const now = webhookTime(HOUR);
        for (const delivery of (await store.log.list(webhookId, { page: 1, limit: 10 })).items) {
          expect(await store.log.retry(webhookId, delivery.deliveryId, now)).to.equal(true);
          const retried = (await store.log.get(webhookId, delivery.deliveryId))!;
          expect(retried).to.include({ status: 'pending', attempts: 1 });
          expect(retried.nextAttemptAt).to.deep.equal(now);
          expect(retried).not.to.have.property('deliveredAt');
        }
        expect(await store.queue.lease(leaseAt(webhookTime(HOUR - 1), [webhookId]))).to.deep.equal([]);
        expect(ids(await store.queue.lease(leaseAt(now, [webhookId]))).sort()).to.deep.equal([failing.eventId, delivered.eventId].sort());
        expect((await store.queue.stats()).pending).to.equal(2);
      });

      it('makes a pending delivery due now, and keeps a lease that holds', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        await store.queue.enqueue(aWebhookEvent({ type: 'webhook.test' }), [webhookId]);
        const [leased] = await store.queue.lease(leaseAt(webhookTime(0), [webhookId]));
        await store.queue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'retry', at: webhookTime(1), nextAttemptAt: webhookTime(HOUR), error: 'x' });
        expect(await store.log.retry(webhookId, leased!.deliveryId, webhookTime(MINUTE_MS))).to.equal(true);
        const [again] = await store.queue.lease(leaseAt(webhookTime(MINUTE_MS), [webhookId]));
        expect(again!.deliveryId).to.equal(leased!.deliveryId);
        expect(await store.log.retry(webhookId, leased!.deliveryId, webhookTime(MINUTE_MS + 1))).to.equal(true);
        expect(await store.queue.lease(leaseAt(webhookTime(MINUTE_MS + 1), [webhookId])), 'still leased').to.deep.equal([]);
        expect(await store.queue.record(again!.deliveryId, again!.leaseToken, { kind: 'delivered', at: webhookTime(MINUTE_MS + 2), statusCode: 200 })).to.equal(true);
      });

      it('answers false for an unknown delivery or another endpoint’s', async () => {
        const { store } = await factory();
        const webhookId = newId('whk');
        await store.queue.enqueue(aWebhookEvent(), [webhookId]);
        const { deliveryId } = (await store.log.list(webhookId, { page: 1, limit: 1 })).items[0]!;
        expect(await store.log.retry(webhookId, newId('wdl'), webhookTime(0))).to.equal(false);
        expect(await store.log.retry(newId('whk'), deliveryId, webhookTime(0))).to.equal(false);
      });
    });

    describe('removeEndpoint and stats', () => {
      it('removes every delivery of one endpoint and only those', async () => {
        const { store } = await factory();
        const [gone, kept] = [newId('whk'), newId('whk')];
        const event = aWebhookEvent();
        await store.queue.enqueue(event, [gone, kept]);
        await store.queue.enqueue(aWebhookEvent(), [gone]);
        const goneId = (await store.log.list(gone, { page: 1, limit: 1 })).items[0]!.deliveryId;
        await store.upkeep.removeEndpoint(gone);
        expect((await store.log.list(gone, { page: 1, limit: 10 })).total).to.equal(0);
        expect(await store.log.get(gone, goneId)).to.equal(null);
        expect(await store.queue.lease(leaseAt(webhookTime(HOUR), [gone]))).to.deep.equal([]);
        expect((await store.log.list(kept, { page: 1, limit: 10 })).total).to.equal(1);
        expect((await store.queue.stats()).pending).to.equal(1);
      });

      it('counts pending deliveries and tells when the oldest was made', async () => {
        const { store } = await factory();
        expect(await store.queue.stats()).to.deep.equal({ pending: 0 });
        const webhookId = newId('whk');
        const [old, young] = [aWebhookEvent({ createdAt: webhookTime(0) }), aWebhookEvent({ createdAt: webhookTime(MINUTE_MS) })];
        await store.queue.enqueue(young, [webhookId]);
        await store.queue.enqueue(old, [webhookId, newId('whk')]);
        expect(await store.queue.stats()).to.deep.equal({ pending: 3, oldestPendingAt: webhookTime(0) });
        for (const leased of await store.queue.lease(leaseAt(webhookTime(HOUR), [webhookId]))) {
          if (leased.eventId === old.eventId) await store.queue.record(leased.deliveryId, leased.leaseToken, { kind: 'delivered', at: webhookTime(HOUR), statusCode: 200 });
        }
        expect((await store.queue.stats()).pending, 'leased ones are still pending').to.equal(2);
      });
    });
  });
}
