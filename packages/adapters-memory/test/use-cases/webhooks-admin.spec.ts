/**
 * ManageWebhooks on the memory stores: what an admin registers is checked (URL shape, then the
 * address policy; events; description), refused input changes nothing, secrets and rotation, the
 * test event, the deliveries list and retry, and `not_found` for unknown ids.
 */
import { afterEach, describe, it } from 'mocha';
import { expect } from 'chai';
import type { DomainError, WebhookUrlPolicy } from '@storefront/domain';
import { WEBHOOK_LIMITS, WEBHOOK_SECRET_OVERLAP_MS } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aWorld } from './world.js';
import { aWebhookWorld, overriding, RECEIVER, type WebhookWorld } from './webhook-world.js';

const SECRET = /^whsec_([A-Za-z0-9+/]{43}=)$/;

/** The validation_failed error `promise` rejects with. */
const invalid = async (promise: Promise<unknown>): Promise<DomainError> => (await expectDomainError(promise, 'validation_failed')) as DomainError;

describe('ManageWebhooks', () => {
  let w: WebhookWorld | undefined;
  afterEach(async () => {
    await w?.dispatcher.stop();
    w = undefined;
  });

  it('adds an endpoint subscribed to every event by default, enabled, with a whsec_ secret of 32 random bytes', async () => {
    w = await aWebhookWorld();
    const { endpoint, secret } = await w.admin.add({ url: RECEIVER, description: '  Front-desk POS  ' });
    expect(endpoint.webhookId).to.match(/^whk_[0-9a-z]{20}$/);
    expect(endpoint).to.include({ url: RECEIVER, description: 'Front-desk POS', enabled: true });
    expect(endpoint.events).to.deep.equal(['order.placed', 'order.status', 'order.refunded']);
    const match = SECRET.exec(secret);
    expect(match, secret).to.not.equal(null);
    expect(Buffer.from(match![1]!, 'base64')).to.have.length(32);
    expect((await w.admin.add({ url: RECEIVER })).secret).to.not.equal(secret);
    expect((await w.admin.list()).map((e) => e.webhookId)).to.have.length(2).and.include(endpoint.webhookId);
  });

  it('keeps the subscribed events in their canonical order, each once', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER, events: ['order.status', 'order.placed', 'order.status'] });
    expect(endpoint.events).to.deep.equal(['order.placed', 'order.status']);
  });

  it('refuses URLs that are not absolute https, carry credentials or are too long, and stores nothing', async () => {
    const strict = aWorld({ webhooks: { allowHttp: false } }, {}).storefront.webhooks!;
    const long = `https://pos.example.com/${'a'.repeat(WEBHOOK_LIMITS.urlMaxLength)}`;
    for (const url of ['http://pos.example.com/hooks', 'ftp://pos.example.com/', '/hooks', 'not a url', '', 'https://user:pw@pos.example.com/', long]) {
      const error = await invalid(strict.add({ url }));
      expect(error.details?.[0]?.path, url).to.equal('url');
    }
    expect(await strict.list()).to.deep.equal([]);
  });

  it('takes http:// only when allowed (WEBHOOK_ALLOW_HTTP)', async () => {
    w = await aWebhookWorld({ webhooks: { allowHttp: true } });
    expect((await w.admin.add({ url: 'http://127.0.0.1:9/hook' })).endpoint.url).to.equal('http://127.0.0.1:9/hook');
  });

  it('refuses a URL the address policy refuses, naming the reason on url', async () => {
    const policy: WebhookUrlPolicy = { check: (url) => Promise.resolve(url.includes('10.0.0.1') ? 'resolves to a private address' : null) };
    const admin = aWorld({}, { webhookUrlPolicy: policy }).storefront.webhooks!;
    const error = await invalid(admin.add({ url: 'https://10.0.0.1/hook' }));
    expect(error.details).to.deep.equal([{ path: 'url', message: 'resolves to a private address' }]);
    const { endpoint } = await admin.add({ url: RECEIVER });
    await expectDomainError(admin.change(endpoint.webhookId, { url: 'https://10.0.0.1/other' }), 'validation_failed');
    expect((await admin.get(endpoint.webhookId)).url).to.equal(RECEIVER);
  });

  it('refuses unknown or no events and a description over the bound', async () => {
    w = await aWebhookWorld();
    const events = await invalid(w.admin.add({ url: RECEIVER, events: ['order.eaten' as 'order.placed'] }));
    expect(events.details?.[0]?.path).to.equal('events');
    await expectDomainError(w.admin.add({ url: RECEIVER, events: [] }), 'validation_failed');
    const description = 'x'.repeat(WEBHOOK_LIMITS.descriptionMaxLength + 1);
    expect((await invalid(w.admin.add({ url: RECEIVER, description }))).details?.[0]?.path).to.equal('description');
    expect(await w.admin.list()).to.deep.equal([]);
  });

  it('answers not_found for an unknown webhook id everywhere', async () => {
    w = await aWebhookWorld();
    const id = 'whk_00000000000000000000';
    await expectDomainError(w.admin.get(id), 'not_found');
    await expectDomainError(w.admin.change(id, { description: 'x' }), 'not_found');
    await expectDomainError(w.admin.remove(id), 'not_found');
    await expectDomainError(w.admin.rotateSecret(id), 'not_found');
    await expectDomainError(w.admin.sendTest(id), 'not_found');
    await expectDomainError(w.admin.deliveries(id, { page: 1, limit: 20 }), 'not_found');
    await expectDomainError(w.admin.retryDelivery(id, 'wdl_00000000000000000000'), 'not_found');
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await expectDomainError(w.admin.retryDelivery(endpoint.webhookId, 'wdl_00000000000000000000'), 'not_found');
  });

  it('disables with reason admin, and re-enabling clears the reason and the failing mark', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    expect(await w.admin.change(endpoint.webhookId, { enabled: false })).to.include({ enabled: false, disabledReason: 'admin' });
    const enabled = await w.admin.change(endpoint.webhookId, { enabled: true, events: ['order.status'] });
    expect(enabled.enabled).to.equal(true);
    expect(enabled.disabledReason).to.equal(undefined);
    expect(enabled.failingSince).to.equal(undefined);
    expect(enabled.events).to.deep.equal(['order.status']);
  });

  it('rotates the secret: the new one first, the old one signing for 24 h more', async () => {
    w = await aWebhookWorld();
    const { endpoint, secret: first } = await w.admin.add({ url: RECEIVER });
    const { secret } = await w.admin.rotateSecret(endpoint.webhookId);
    expect(secret).to.match(SECRET).and.not.equal(first);
    const secrets = (await w.admin.get(endpoint.webhookId)).secrets;
    expect(secrets.map((s) => s.secret)).to.deep.equal([secret, first]);
    expect(secrets[1]!.expiresAt!.getTime() - w.world.clock.now().getTime()).to.equal(WEBHOOK_SECRET_OVERLAP_MS);
    for (let i = 0; i < 5; i++) await w.admin.rotateSecret(endpoint.webhookId);
    expect((await w.admin.get(endpoint.webhookId)).secrets).to.have.length(WEBHOOK_LIMITS.secretsMax);
  });

  it('sends a test event to that endpoint only, listed with its delivery id', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    const other = (await w.admin.add({ url: RECEIVER })).endpoint;
    const test = await w.admin.sendTest(endpoint.webhookId);
    expect(test.eventId).to.match(/^evt_test_[0-9a-z]{20}$/);
    const listed = await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20 });
    expect(listed.items.map((d) => [d.deliveryId, d.type, d.status])).to.deep.equal([[test.deliveryId, 'webhook.test', 'pending']]);
    await w.delivered();
    expect(w.sender.sent.map((s) => [s.webhookId, s.type])).to.deep.equal([[endpoint.webhookId, 'webhook.test']]);
    expect(w.sender.sent[0]!.body).to.deep.equal({ type: 'webhook.test', timestamp: w.world.clock.now().toISOString(), data: { webhook_id: endpoint.webhookId } });
    expect((await w.admin.deliveries(other.webhookId, { page: 1, limit: 20 })).total).to.equal(0);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20, status: 'delivered' })).total).to.equal(1);
  });

  it('refuses a bad deliveries filter or page', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await expectDomainError(w.admin.deliveries(endpoint.webhookId, { page: 0, limit: 20 }), 'validation_failed');
    await expectDomainError(w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20, status: 'lost' as 'failed' }), 'validation_failed');
  });

  it('retries a failed delivery: pending and due now, then sent again with the same webhook-id', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    w.sender.answer = () => ({ kind: 'response', statusCode: 410 });
    const { deliveryId, eventId } = await w.admin.sendTest(endpoint.webhookId);
    await w.delivered();
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20, status: 'failed' })).total).to.equal(1);
    await w.admin.change(endpoint.webhookId, { enabled: true });
    w.sender.answer = () => ({ kind: 'response', statusCode: 204 });
    await w.admin.retryDelivery(endpoint.webhookId, deliveryId!);
    await w.delivered();
    expect(w.sender.sent.map((s) => s.eventId)).to.deep.equal([eventId, eventId]);
    const [delivery] = (await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20 })).items;
    expect(delivery).to.include({ status: 'delivered', attempts: 2, lastStatusCode: 204 });
  });

  it('removes an endpoint with its deliveries', async () => {
    w = await aWebhookWorld();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await w.admin.sendTest(endpoint.webhookId);
    await w.admin.remove(endpoint.webhookId);
    await expectDomainError(w.admin.get(endpoint.webhookId), 'not_found');
    expect((await w.world.adapters.webhookDeliveryQueue.stats()).pending).to.equal(0);
  });

  it('finishes a removal a fault stopped halfway: the housekeeping removes the pending deliveries of the endpoint that is gone', async () => {
    let failing = true;
    w = await aWebhookWorld({}, (adapters) => ({
      webhookDeliveryUpkeep: overriding(adapters.webhookDeliveryUpkeep, {
        removeEndpoint: async (id) => (failing ? Promise.reject(new Error('the store went away')) : adapters.webhookDeliveryUpkeep.removeEndpoint(id)),
      }),
    }));
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await w.admin.sendTest(endpoint.webhookId);
    const refused = await w.admin.remove(endpoint.webhookId).then(() => null, (error: unknown) => error);
    expect((refused as Error | null)?.message).to.equal('the store went away');
    await expectDomainError(w.admin.get(endpoint.webhookId), 'not_found');
    expect((await w.world.adapters.webhookDeliveryQueue.stats()).pending, 'left by the fault').to.equal(1);
    failing = false;
    expect(await w.world.storefront.webhookHousekeeping!.sweep()).to.deep.equal({ expired: 0, orphanEndpoints: 1 });
    expect((await w.world.adapters.webhookDeliveryQueue.stats()).pending).to.equal(0);
    expect(await w.world.adapters.webhookDeliveryUpkeep.endpointsWithDeliveries()).to.deep.equal([]);
  });

  it('keeps a finished delivery WEBHOOK_RETENTION_DAYS (retentionMs) after it finished, then the housekeeping removes it', async () => {
    const day = 24 * 3_600_000;
    w = await aWebhookWorld({ webhooks: { retentionMs: day } });
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await w.admin.sendTest(endpoint.webhookId);
    await w.delivered();
    const housekeeping = w.world.storefront.webhookHousekeeping!;
    w.world.clock.advance(day - 1);
    expect((await housekeeping.sweep()).expired).to.equal(0);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 5 })).items.map((d) => d.status)).to.deep.equal(['delivered']);
    w.world.clock.advance(1);
    expect((await housekeeping.sweep()).expired).to.equal(1);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 5 })).total).to.equal(0);
  });
});
