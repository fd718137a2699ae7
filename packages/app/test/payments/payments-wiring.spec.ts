/**
 * The service with STOREFRONT_PAYMENTS=stripe on the memory store, against packages/testing's Stripe
 * stand-in on loopback: placement opens a PaymentIntent and answers awaiting_payment with its client
 * secret; the provider's calls are measured; no key or client secret reaches the log. And the
 * payment upkeep the service starts: the sweeper settles an order past its window, and processed
 * provider events are forgotten after their retention.
 */
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { FakeClock, StripeStandIn } from '@storefront/testing';
import { resolve } from '../../src/binding.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { TYPES } from '../../src/identifiers.js';
import { PROVIDER_EVENT_RETENTION_MS, startPaymentUpkeep } from '../../src/payment-upkeep.js';
import { seedDatabase } from '../../src/seed.js';
import { startStorefront, type RunningStorefront } from '../../src/server.js';
import { recordingLogger, TEST_ENV, type LogLine } from '../helpers.js';
import { scrapeUntil } from '../metrics-support.js';

const systemClock = { now: () => new Date() };

const stripeEnv = (standIn: StripeStandIn) => ({
  STOREFRONT_PAYMENTS: 'stripe',
  STRIPE_SECRET_KEY: standIn.apiKey,
  STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
  STRIPE_API_BASE: standIn.url,
});

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe('Card payments wired (STOREFRONT_PAYMENTS=stripe, memory store, Stripe stand-in)', function () {
  this.timeout(20_000);
  let standIn: StripeStandIn;
  let running: RunningStorefront;
  let lines: LogLine[];

  before(async () => {
    standIn = await StripeStandIn.start({ clock: systemClock });
    const recording = recordingLogger('debug');
    lines = recording.lines;
    running = await startStorefront({ ...TEST_ENV, ...stripeEnv(standIn), METRICS_PORT: '0' }, { logger: recording.logger });
  });
  after(async () => {
    await running?.close();
    await standIn?.close();
  });

  it('answers POST /api/orders 201 awaiting_payment with a client secret, its intent made with a key of its own', async () => {
    const login = await fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@example.com', password: 'alice-password' }) });
    const token = (await json(login))['access_token'] as string;
    const products = (await json(await fetch(`${running.url}/api/products`)))['products'] as { product_id: string; available: boolean; option_groups: unknown[] }[];
    const product = products.find((p) => p.available && p.option_groups.length === 0)!;
    const res = await fetch(`${running.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': 'wired-1' },
      body: JSON.stringify({ items: [{ product_id: product.product_id, quantity: 1 }] }),
    });
    const order = await json(res);
    expect(res.status, JSON.stringify(order)).to.equal(201);
    expect(order['status']).to.equal('awaiting_payment');
    // The order as stored: its intent and the client secret the owner's front end confirms it with.
    const stored = await running.storefront.getOrder.execute({ viewer: { customerId: 'staff', role: 'staff' }, orderId: order['order_id'] as string });
    const payment = stored.payment!;
    expect(payment).to.deep.include({ provider: 'stripe', status: 'awaiting', amount: order['amount'] });
    expect(payment.clientSecret).to.match(/^pi_\w+_secret_\w+$/);
    expect(standIn.intent(payment.intentId)).to.deep.include({ client_secret: payment.clientSecret, capture_method: 'manual' });
    const created = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(created.map((r) => r.idempotencyKey)).to.deep.equal([`storefront:${order['order_id'] as string}:authorize`]);

    const metrics = await scrapeUntil(running.metricsUrl!, (s) => s.value('storefront_payment_provider_calls_total', 'counter', { operation: 'authorize', outcome: 'ok' }) === 1);
    expect(metrics.histogram('storefront_payment_provider_call_duration_seconds', { operation: 'authorize', outcome: 'ok' })?.count).to.equal(1);

    // Nothing secret in the log: not the keys, not the client secret.
    const log = JSON.stringify(lines);
    for (const secret of [standIn.apiKey, standIn.webhookSecret, payment.clientSecret!, '_secret_']) expect(log).not.to.include(secret);
    expect(lines.find((line) => line.msg === 'storefront started')).to.deep.include({ payments: 'stripe', stripe_api: standIn.url, payment_window_minutes: 15 });
  });

  it('gives the storefront the provider events\' intake and the sweeper', () => {
    expect(running.storefront.paymentSweeper).not.to.equal(undefined);
    expect(running.storefront.takeProviderEvent).not.to.equal(undefined);
  });
});

describe('startPaymentUpkeep', function () {
  this.timeout(20_000);
  let standIn: StripeStandIn;
  before(async () => {
    standIn = await StripeStandIn.start({ clock: systemClock });
  });
  after(async () => standIn?.close());

  it('starts the sweeper: an order past its window is cancelled at the provider, then payment_expired', async () => {
    const clock = new FakeClock(Date.now());
    const config = loadConfig({ ...TEST_ENV, ...stripeEnv(standIn) });
    const { logger } = recordingLogger();
    const container = createContainer(config, logger, { clock });
    try {
      const storefront = resolve(container, TYPES.Storefront);
      await seedDatabase(storefront, config, logger);
      const alice = (await resolve(container, TYPES.CustomerRepository).findByEmail('alice@example.com'))!;
      const product = (await resolve(container, TYPES.MenuRepository).list()).find((p) => p.available && p.optionGroups.length === 0)!;
      const { order } = await storefront.placeOrder.execute({ customerId: alice.customerId, items: [{ productId: product.productId, quantity: 1 }] });
      expect(order.status).to.equal('awaiting_payment');
      clock.advance(16 * 60_000);
      const upkeep = startPaymentUpkeep(storefront, resolve(container, TYPES.ProviderEvents), clock, logger);
      try {
        await storefront.background.settled();
        const after = (await resolve(container, TYPES.OrderRepository).findById(order.orderId))!;
        expect(after.status).to.equal('cancelled');
        expect(after.reason).to.equal('payment_expired');
        expect(standIn.intent(order.payment!.intentId)['status']).to.equal('canceled');
      } finally {
        upkeep.stop();
      }
    } finally {
      await container.unbindAllAsync();
    }
  });

  it('forgets processed provider events after the retention, and only those', async () => {
    const clock = new FakeClock(Date.now());
    const events = createMemoryAdapters().providerEvents;
    const { logger } = recordingLogger();
    await events.claim('stripe', 'evt_old', clock.now());
    await events.complete('stripe', 'evt_old', clock.now());
    clock.advance(PROVIDER_EVENT_RETENTION_MS / 2);
    await events.claim('stripe', 'evt_recent', clock.now());
    await events.complete('stripe', 'evt_recent', clock.now());
    clock.advance(PROVIDER_EVENT_RETENTION_MS / 2 + 1);
    const sweeper = { started: 0, stopped: 0, start() { this.started++; }, stop() { this.stopped++; } };
    const upkeep = startPaymentUpkeep({ paymentSweeper: sweeper } as never, events, clock, logger);
    upkeep.stop();
    await new Promise((done) => setTimeout(done, 20));
    expect(await events.isCompleted('stripe', 'evt_old')).to.equal(false);
    expect(await events.isCompleted('stripe', 'evt_recent')).to.equal(true);
    expect([sweeper.started, sweeper.stopped]).to.deep.equal([1, 1]);
  });
});
