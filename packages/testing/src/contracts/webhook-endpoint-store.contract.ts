/**
 * What every WebhookEndpointStore must do. Each test makes its own endpoints (fresh ids), so a
 * store shared across tests works; `list` is checked on the endpoints the test made.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { WebhookEndpoint, WebhookEndpointStore } from '@storefront/domain';
import { newId } from '@storefront/domain';
import { aWebhookEndpoint, aWebhookSecret, webhookTime } from '../webhook-builders.js';

const HOUR_MS = 3_600_000;

export function describeWebhookEndpointStoreContract(name: string, factory: () => Promise<WebhookEndpointStore>): void {
  describe(`${name} (WebhookEndpointStore contract)`, () => {
    it('gives back a created endpoint as it was stored, secrets and dates included', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint({
        events: ['order.status'],
        secrets: [
          { secret: aWebhookSecret(), createdAt: webhookTime(HOUR_MS) },
          { secret: aWebhookSecret(), createdAt: webhookTime(0), expiresAt: webhookTime(25 * HOUR_MS) },
        ],
      });
      await store.create(endpoint);
      expect(await store.get(endpoint.webhookId)).to.deep.equal(endpoint);
    });

    it('keeps what a disabled, failing endpoint carries', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint({ enabled: false, disabledReason: 'gone', failingSince: webhookTime(5) });
      await store.create(endpoint);
      expect(await store.get(endpoint.webhookId)).to.deep.equal(endpoint);
    });

    it('answers null for an unknown endpoint', async () => {
      const store = await factory();
      expect(await store.get(newId('whk'))).to.equal(null);
    });

    it('lists endpoints oldest first', async () => {
      const store = await factory();
      const late = aWebhookEndpoint({ createdAt: webhookTime(2 * HOUR_MS) });
      const early = aWebhookEndpoint({ createdAt: webhookTime(HOUR_MS) });
      await store.create(late);
      await store.create(early);
      const ids = (await store.list()).map((e) => e.webhookId).filter((id) => id === late.webhookId || id === early.webhookId);
      expect(ids).to.deep.equal([early.webhookId, late.webhookId]);
    });

    it('applies only the changes given, and answers the endpoint after them', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      await store.create(endpoint);
      const secrets = [{ secret: aWebhookSecret(), createdAt: webhookTime(HOUR_MS) }, { ...endpoint.secrets[0]!, expiresAt: webhookTime(25 * HOUR_MS) }];
      const changed = await store.update(endpoint.webhookId, {
        url: 'https://printer.example.com/in',
        events: ['order.placed'],
        secrets,
        updatedAt: webhookTime(HOUR_MS),
      });
      const expected: WebhookEndpoint = {
        ...endpoint,
        url: 'https://printer.example.com/in',
        events: ['order.placed'],
        secrets,
        updatedAt: webhookTime(HOUR_MS),
      };
      expect(changed).to.deep.equal(expected);
      expect(await store.get(endpoint.webhookId)).to.deep.equal(expected);
    });

    it('sets and clears the disabled reason and the failing time (null clears)', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      await store.create(endpoint);
      const disabled = await store.update(endpoint.webhookId, {
        enabled: false,
        disabledReason: 'failing',
        failingSince: webhookTime(1),
        description: 'off',
        updatedAt: webhookTime(2),
      });
      expect(disabled).to.deep.equal({ ...endpoint, enabled: false, disabledReason: 'failing', failingSince: webhookTime(1), description: 'off', updatedAt: webhookTime(2) });
      const enabled = await store.update(endpoint.webhookId, { enabled: true, disabledReason: null, failingSince: null, updatedAt: webhookTime(3) });
      expect(enabled).to.deep.equal({ ...endpoint, description: 'off', updatedAt: webhookTime(3) });
      expect(await store.get(endpoint.webhookId)).to.deep.equal(enabled);
    });

    it('answers null when updating an unknown endpoint', async () => {
      const store = await factory();
      expect(await store.update(newId('whk'), { description: 'x', updatedAt: webhookTime(0) })).to.equal(null);
    });

    it('marks an endpoint failing at the first failure only, until a success clears it', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      await store.create(endpoint);
      expect((await store.markFailing(endpoint.webhookId, webhookTime(1)))!.failingSince).to.deep.equal(webhookTime(1));
      expect((await store.markFailing(endpoint.webhookId, webhookTime(2)))!.failingSince).to.deep.equal(webhookTime(1));
      await store.update(endpoint.webhookId, { failingSince: null, updatedAt: webhookTime(3) });
      expect((await store.markFailing(endpoint.webhookId, webhookTime(4)))!.failingSince).to.deep.equal(webhookTime(4));
      expect(await store.markFailing(newId('whk'), webhookTime(5))).to.equal(null);
    });

    it('lets racing instances agree on one failing time', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      await store.create(endpoint);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => store.markFailing(endpoint.webhookId, webhookTime(i + 1))));
      const times = new Set(answers.map((a) => a!.failingSince!.getTime()));
      expect(times.size).to.equal(1);
      expect((await store.get(endpoint.webhookId))!.failingSince!.getTime()).to.equal([...times][0]);
    });

    it('removes an endpoint once', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      const kept = aWebhookEndpoint();
      await store.create(endpoint);
      await store.create(kept);
      expect(await store.remove(endpoint.webhookId)).to.equal(true);
      expect(await store.remove(endpoint.webhookId)).to.equal(false);
      expect(await store.get(endpoint.webhookId)).to.equal(null);
      expect((await store.list()).map((e) => e.webhookId)).to.include(kept.webhookId).and.not.include(endpoint.webhookId);
    });

    it('hands out copies: changing an answer changes nothing stored', async () => {
      const store = await factory();
      const endpoint = aWebhookEndpoint();
      await store.create(endpoint);
      const answer = (await store.get(endpoint.webhookId))!;
      (answer.secrets as WebhookEndpoint['secrets'][number][]).push({ secret: aWebhookSecret(), createdAt: webhookTime(0) });
      answer.createdAt.setTime(0);
      expect(await store.get(endpoint.webhookId)).to.deep.equal(endpoint);
    });
  });
}
