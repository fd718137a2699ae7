/**
 * Webhooks as the app wires them (memory store): the real sender of adapters-webhooks with the
 * WEBHOOK_* settings, the dispatcher started with the service and stopped with it, the order's
 * body as GET /api/orders/{id} shows it, a real receiver verifying with `standardwebhooks`, the
 * address rules at registration, the metrics, the admin demo account, and on PostgreSQL what was
 * pending at a stop sent after the restart.
 */
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '@storefront/domain';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { FakeClock, usePostgresTestDatabase, WebhookReceiver } from '@storefront/testing';
import { startStorefront, type RunningStorefront } from '../src/server.js';
import { TEST_ENV } from './helpers.js';
import { scrapeUntil } from './metrics-support.js';

const DELIVERIES = 'storefront_webhook_deliveries_total';

async function call(url: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.token && { authorization: `Bearer ${init.token}` }), ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function login(url: string, email: string, password: string): Promise<string> {
  const { status, body } = await call(`${url}/api/auth/login`, { method: 'POST', body: { email, password } });
  expect(status).to.equal(200);
  return (body as { access_token: string }).access_token;
}

describe('webhooks wired in the app', () => {
  let running: RunningStorefront;
  let receiver: WebhookReceiver;

  before(async () => {
    running = await startStorefront({ ...TEST_ENV, METRICS_PORT: '0', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await running?.close();
    await receiver?.close();
  });

  it('answers GET /api/me with role admin for the demo owner', async () => {
    const owner = await login(running.url, 'owner@example.com', 'owner-password');
    expect((await call(`${running.url}/api/me`, { token: owner })).body).to.include({ email: 'owner@example.com', role: 'admin' });
  });

  it('delivers a placed order, signed, with the order as GET /api/orders/{id} shows it, and counts it', async () => {
    const { secret } = await running.storefront.webhooks!.add({ url: receiver.url(), events: ['order.placed'] });
    receiver.secrets = [secret];
    const alice = await login(running.url, 'alice@example.com', 'alice-password');
    const products = (await call(`${running.url}/api/products`)).body as { products: { product_id: string; available: boolean }[] };
    const productId = products.products.find((p) => p.available)!.product_id;
    const placed = await call(`${running.url}/api/orders`, { method: 'POST', token: alice, body: { items: [{ product_id: productId, quantity: 1 }] } });
    expect(placed.status).to.equal(201);
    const orderId = (placed.body as { order_id: string }).order_id;
    await receiver.waitFor((r) => r.accepted.length === 1);
    const [request] = receiver.accepted;
    expect(request!.headers['webhook-id']).to.equal(`evt_${orderId}_1`);
    expect(request!.json!.type).to.equal('order.placed');
    expect(request!.json!.data).to.deep.equal((await call(`${running.url}/api/orders/${orderId}`, { token: alice })).body);
    const scraped = await scrapeUntil(running.metricsUrl!, (s) => s.value(DELIVERIES, 'counter', { outcome: 'delivered' }) === 1);
    expect(scraped.value('storefront_webhook_pending', 'gauge')).to.equal(0);
    expect(scraped.value('storefront_webhook_oldest_pending_seconds', 'gauge')).to.equal(0);
  });

  it('counts a failed attempt as retry and shows it pending', async () => {
    const failing = await WebhookReceiver.start();
    try {
      failing.failWith(503);
      const { endpoint } = await running.storefront.webhooks!.add({ url: failing.url() });
      await running.storefront.webhooks!.sendTest(endpoint.webhookId);
      await failing.waitFor((r) => r.requests.length === 1);
      const scraped = await scrapeUntil(running.metricsUrl!, (s) => s.value(DELIVERIES, 'counter', { outcome: 'retry' }) === 1);
      expect(scraped.value('storefront_webhook_pending', 'gauge')).to.equal(1);
      await running.storefront.webhooks!.remove(endpoint.webhookId);
    } finally {
      await failing.close();
    }
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE', () => {
  let running: RunningStorefront;
  before(async () => {
    running = await startStorefront({ ...TEST_ENV, WEBHOOK_ALLOW_HTTP: 'true' });
  });
  after(() => running?.close());

  it('refuses a loopback or private URL at registration with validation_failed on url', async () => {
    for (const url of ['http://127.0.0.1:9/hooks', 'http://localhost/hooks', 'http://10.1.2.3/hooks', 'http://[::1]/hooks', 'http://2130706433/hooks']) {
      const error = await running.storefront.webhooks!.add({ url }).catch((e: unknown) => e);
      expect(isDomainError(error, 'validation_failed'), url).to.equal(true);
      expect((error as { details: { path: string }[] }).details[0]!.path).to.equal('url');
    }
    expect(await running.storefront.webhooks!.list()).to.deep.equal([]);
  });
});

describe('webhooks on PostgreSQL across a restart', () => {
  const database = usePostgresTestDatabase('storefront_webhooks_wiring');

  it('sends after the restart what was pending when the service stopped, with the same webhook-id', async function () {
    this.timeout(60_000);
    const env = {
      ...TEST_ENV,
      STOREFRONT_STORE: 'postgres',
      DATABASE_URL: database().url,
      TOKEN_SECRET_KEY: generateSigningKey(),
      STOREFRONT_DEMO_DATA: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    // Near the real time: the receiver's library checks webhook-timestamp against it (±5 min).
    const clock = new FakeClock(Date.now());
    const receiver = await WebhookReceiver.start();
    let running = await startStorefront(env, { clock });
    try {
      await running.ready;
      const { endpoint, secret } = await running.storefront.webhooks!.add({ url: receiver.url() });
      receiver.secrets = [secret];
      receiver.failWith(503);
      await running.storefront.webhooks!.sendTest(endpoint.webhookId);
      await receiver.waitFor((r) => r.requests.length === 1);
      await running.close();
      receiver.succeed();
      running = await startStorefront(env, { clock });
      await running.ready;
      // Due 5 s (±10 %) after the failure: the restarted dispatcher's poll finds it once due.
      clock.advance(6_000);
      await receiver.waitFor((r) => r.accepted.length === 1);
      expect(receiver.accepted[0]!.headers['webhook-id']).to.equal(receiver.requests[0]!.headers['webhook-id']);
      // The receiver answers before the sender records: wait for the record.
      const recorded = async () => (await running.storefront.webhooks!.deliveries(endpoint.webhookId, { page: 1, limit: 5 })).items[0]!;
      for (let i = 0; i < 100 && (await recorded()).status !== 'delivered'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await recorded()).to.include({ status: 'delivered', attempts: 2 });
    } finally {
      await running.close();
      await receiver.close();
    }
  });
});
