/**
 * Deliveries are not kept forever (issue 32 item 13): a delivered or failed delivery is removed
 * once its `keepUntil` passed, in bounded batches, never a pending one; the deliveries of a removed
 * endpoint go with it, also when a fault stopped the removal halfway (the housekeeping's sweep
 * finds them). Time is an injected clock.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { WebhookEndpoint } from '@storefront/domain';
import { newId, WebhookHousekeeping } from '@storefront/domain/adapter-kit';
import { FakeClock } from '../fake-clock.js';
import { aWebhookEvent, webhookTime } from '../webhook-builders.js';
import { HOUR, ids, leaseAt, type WebhookDeliveryStoresUnderTest } from './webhook-delivery-support.js';

const DAY = 24 * HOUR;

export function describeWebhookDeliveryRetention(factory: () => Promise<WebhookDeliveryStoresUnderTest>): void {
  describe('retention and removal', () => {
    it('removes delivered and failed deliveries once their keepUntil passed, keeps the newer ones, never a pending one', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const events = ['delivered', 'failed', 'newer', 'pending', 'retried'].map((_, i) =>
        aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(i) }),
      );
      for (const event of events) await store.queue.enqueue(event, [webhookId]);
      const t0 = webhookTime(HOUR);
      const leased = await store.queue.lease(leaseAt(t0, [webhookId]));
      const byEvent = new Map(leased.map((d) => [d.eventId, d]));
      const [delivered, failed, newer, pending, retried] = events.map((e) => byEvent.get(e.eventId)!);
      const keepUntil = new Date(t0.getTime() + DAY);
      expect(await store.queue.record(delivered!.deliveryId, delivered!.leaseToken, { kind: 'delivered', at: t0, statusCode: 200, keepUntil })).to.equal(true);
      expect(await store.queue.record(failed!.deliveryId, failed!.leaseToken, { kind: 'failed', at: t0, statusCode: 410, error: 'HTTP 410', keepUntil })).to.equal(true);
      await store.queue.record(newer!.deliveryId, newer!.leaseToken, { kind: 'delivered', at: t0, statusCode: 200, keepUntil: new Date(t0.getTime() + 3 * DAY) });
      await store.queue.record(pending!.deliveryId, pending!.leaseToken, { kind: 'retry', at: t0, nextAttemptAt: new Date(t0.getTime() + 10 * DAY), error: 'HTTP 503' });
      // Delivered, then sent again by an admin: pending again, so no longer removed by retention.
      await store.queue.record(retried!.deliveryId, retried!.leaseToken, { kind: 'delivered', at: t0, statusCode: 200, keepUntil });
      expect(await store.log.retry(webhookId, retried!.deliveryId, new Date(t0.getTime() + HOUR))).to.equal(true);

      expect(await store.upkeep.removeExpired(new Date(keepUntil.getTime() - 1), 100), 'nothing before keepUntil').to.equal(0);
      expect(await store.upkeep.removeExpired(new Date(t0.getTime() + 2 * DAY), 100)).to.equal(2);
      const left = await store.log.list(webhookId, { page: 1, limit: 10 });
      expect(ids(left.items).sort()).to.deep.equal([newer, pending, retried].map((d) => d!.eventId).sort());
      expect(await store.log.get(webhookId, delivered!.deliveryId)).to.equal(null);
      expect(await store.log.get(webhookId, failed!.deliveryId)).to.equal(null);

      expect(await store.upkeep.removeExpired(new Date(t0.getTime() + 100 * DAY), 100), 'only the newer delivered one').to.equal(1);
      const pendingLeft = await store.log.list(webhookId, { page: 1, limit: 10 });
      expect(pendingLeft.items.map((d) => d.status)).to.deep.equal(['pending', 'pending']);
      expect((await store.queue.stats()).pending).to.equal(2);
    });

    it('removes at most `limit` per call, oldest expiry first', async () => {
      const { store } = await factory();
      const webhookId = newId('whk');
      const events = [0, 1, 2].map((i) => aWebhookEvent({ type: 'webhook.test', createdAt: webhookTime(i) }));
      for (const event of events) await store.queue.enqueue(event, [webhookId]);
      const t0 = webhookTime(HOUR);
      const leased = await store.queue.lease(leaseAt(t0, [webhookId]));
      for (const [i, delivery] of leased.entries()) {
        await store.queue.record(delivery.deliveryId, delivery.leaseToken, { kind: 'delivered', at: t0, statusCode: 204, keepUntil: new Date(t0.getTime() + (3 - i) * HOUR) });
      }
      const later = new Date(t0.getTime() + 10 * HOUR);
      expect(await store.upkeep.removeExpired(later, 2)).to.equal(2);
      expect(ids((await store.log.list(webhookId, { page: 1, limit: 10 })).items)).to.deep.equal([leased[0]!.eventId]);
      expect(await store.upkeep.removeExpired(later, 2)).to.equal(1);
      expect((await store.log.list(webhookId, { page: 1, limit: 10 })).total).to.equal(0);
    });

    it('knows which endpoints have deliveries stored; a removed endpoint’s deliveries, pending ones included, go with it', async () => {
      const { store, other } = await factory();
      const [kept, removed] = [newId('whk'), newId('whk')];
      await store.queue.enqueue(aWebhookEvent({ orderVersion: 1 }), [kept, removed]);
      await store.queue.enqueue(aWebhookEvent({ orderVersion: 2 }), [removed]);
      expect((await other.upkeep.endpointsWithDeliveries()).sort()).to.deep.equal([kept, removed].sort());
      await store.upkeep.removeEndpoint(removed);
      expect(await other.upkeep.endpointsWithDeliveries()).to.deep.equal([kept]);
      expect((await store.log.list(removed, { page: 1, limit: 10 })).total).to.equal(0);
      expect((await store.queue.stats()).pending).to.equal(1);
    });

    it('finishes a removal a fault stopped halfway: the sweep removes the deliveries of an endpoint that is gone, and the expired ones, by the injected clock', async () => {
      const { store } = await factory();
      const [kept, removed] = [newId('whk'), newId('whk')];
      const endpoints = new Map<string, WebhookEndpoint>([[kept, { webhookId: kept } as WebhookEndpoint]]);
      const clock = new FakeClock(webhookTime(HOUR).getTime());
      const housekeeping = new WebhookHousekeeping({ deliveries: store.upkeep, endpoints: { get: async (id) => endpoints.get(id) ?? null }, clock }, { batch: 1 });
      // The endpoint `removed` is gone from the endpoint store; the process stopped before its deliveries went.
      await store.queue.enqueue(aWebhookEvent({ type: 'webhook.test' }), [kept, removed]);
      await store.queue.enqueue(aWebhookEvent({ type: 'webhook.test' }), [removed]);
      const [first] = await store.queue.lease(leaseAt(clock.now(), [kept]));
      await store.queue.record(first!.deliveryId, first!.leaseToken, { kind: 'delivered', at: clock.now(), statusCode: 200, keepUntil: new Date(clock.now().getTime() + DAY) });

      expect(await housekeeping.sweep()).to.deep.equal({ expired: 0, orphanEndpoints: 1 });
      expect((await store.log.list(removed, { page: 1, limit: 10 })).total).to.equal(0);
      expect(await store.upkeep.endpointsWithDeliveries()).to.deep.equal([kept]);
      expect((await store.log.list(kept, { page: 1, limit: 10 })).total, 'kept until its time').to.equal(1);

      clock.advance(DAY);
      expect(await housekeeping.sweep()).to.deep.equal({ expired: 1, orphanEndpoints: 0 });
      expect((await store.log.list(kept, { page: 1, limit: 10 })).total).to.equal(0);
    });
  });
}
