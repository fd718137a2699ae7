/**
 * Card payments over HTTP against a stand-in that speaks Stripe's API (DECISIONS "Payments"; the
 * stand-in is packages/testing's StripeStandIn: stripe-mock cannot be installed here). The real
 * `stripe` SDK talks to it over loopback; its events are signed as Stripe signs them and verified by
 * the SDK's own verifier. Runs alike in memory and with STOREFRONT_TEST_STORE=postgres.
 */
import { generateSigningKey } from '@storefront/adapters-crypto';
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { FakeClock, StripeStandIn, WebhookReceiver, signStripePayload } from '@storefront/testing';
import type { StartOptions } from '../../src/server.js';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import type { AuthorizationRequest } from '@storefront/domain/adapter-kit';
import { resolve } from '../../src/binding.js';
import { TYPES } from '../../src/identifiers.js';
import { postgresDatabase, postgresMode, type ServerDatabase } from '../postgres-mode.js';
import { composeStorefront, type ComposedServer } from '../reliability/support.js';
import { dataOf, follow } from './events-support.js';
import { staffToken } from './kitchen-support.js';
import { adminToken, register } from './webhooks-support.js';
import { availableProducts, call, expectError, login, useServer, type Env, type ServerHandle } from './support.js';

const systemClock = { now: () => new Date() };

interface PaymentJson {
  status: string;
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  payment_intent_id: string;
  client_secret?: string;
  refunds: { refund_id: string; amount: number; status: string; reason: string }[];
}
interface OrderJson {
  order_id: string;
  status: string;
  amount: number;
  version: number;
  payment: PaymentJson | null;
  status_history: { status: string }[];
  reason?: string;
}

/** A stand-in and a server paying through it (both per suite). */
function usePayingServer(
  extra: Env = {},
  options: StartOptions = {},
  /** The stand-in's time (its intents lapse by it); its events are signed at the real time. */
  standInClock = systemClock,
): { h: ServerHandle; standIn: () => StripeStandIn; webhookUrl: () => string } {
  const env: Env = {};
  let standIn: StripeStandIn | undefined;
  before(async () => {
    standIn = await StripeStandIn.start({ clock: standInClock });
    Object.assign(env, {
      STOREFRONT_PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: standIn.apiKey,
      STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
      STRIPE_API_BASE: standIn.url,
      ...extra,
    });
  });
  const h = useServer(env, options);
  after(async () => {
    await standIn?.close();
  });
  return { h, standIn: () => standIn!, webhookUrl: () => `${h.url}/api/payments/stripe/webhook` };
}

async function customerToken(base: string): Promise<string> {
  return (await login(base, 'alice@example.com', 'alice-password')).access_token;
}

async function orderOf(base: string, token: string, orderId: string): Promise<OrderJson> {
  const res = await call(base, `/api/orders/${orderId}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body as OrderJson;
}

async function kitchenIds(base: string, staff: string): Promise<string[]> {
  const res = await call(base, '/api/staff/orders?per_page=100', { token: staff });
  expect(res.status, res.text).to.equal(200);
  return (res.body.orders as OrderJson[]).map((o) => o.order_id);
}

/** What the stand-in was asked to refund for the intent: one amount per idempotency key (a retried key refunds once). */
function refundedBy(standIn: StripeStandIn, intentId: string): number {
  const byKey = new Map(standIn.requests.filter((r) => r.path === '/v1/refunds' && r.params['payment_intent'] === intentId).map((r) => [r.idempotencyKey, Number(r.params['amount'])]));
  return [...byKey.values()].reduce((sum, amount) => sum + amount, 0);
}

/** Runs `race` with the stand-in acting only after `ms` on each call, so requests overlap at the provider. */
async function withSlowProvider<T>(standIn: StripeStandIn, ms: number, race: () => Promise<T>): Promise<T> {
  standIn.slowMs = ms;
  standIn.mode = 'slow';
  try {
    return await race();
  } finally {
    standIn.mode = 'up';
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Payments (e2e, Stripe stand-in)', function () {
  this.timeout(30_000);
  const { h, standIn, webhookUrl } = usePayingServer();
  /** The sweeper's check of one order, now, whatever its check time. */
  const sweepNow = async (orderId: string) =>
    h.server.storefront.paymentSweeper!.check(await h.server.storefront.getOrder.execute({ viewer: { customerId: 'x', role: 'staff' }, orderId }));
  let token: string;
  let staff: string;
  let productId: string;

  before(async () => {
    token = await customerToken(h.url);
    staff = await staffToken(h.url);
    productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
  });

  const place = (key: string) =>
    call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] }, headers: { 'Idempotency-Key': key } });

  /** Places an order and has the stand-in tell us its card was authorized. */
  async function paidOrder(key: string): Promise<OrderJson> {
    const placed = await place(key);
    expect(placed.status, placed.text).to.equal(201);
    const order = placed.body as OrderJson;
    standIn().confirm(order.payment!.payment_intent_id, 'pm_card_visa');
    const res = await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', order.payment!.payment_intent_id));
    expect(res.status).to.equal(200);
    return orderOf(h.url, token, order.order_id);
  }

  it('takes the whole flow: awaiting with a client secret, placed once authorized, captured on acceptance, refunded on cancellation', async () => {
    const res = await place(`flow-${Date.now()}`);
    expect(res.status, res.text).to.equal(201);
    const order = res.body as OrderJson;
    expect(order.status).to.equal('awaiting_payment');
    expect(order.payment).to.deep.include({ status: 'awaiting', amount: order.amount, amount_captured: 0, amount_refunded: 0 });
    expect(order.payment!.client_secret).to.match(/_secret_/);
    const intent = standIn().intent(order.payment!.payment_intent_id);
    expect(intent).to.deep.include({ amount: order.amount, capture_method: 'manual', status: 'requires_payment_method' });
    expect((intent['metadata'] as Record<string, string>)['order_id']).to.equal(order.order_id);
    expect(await kitchenIds(h.url, staff), 'no unpaid order in the kitchen').not.to.include(order.order_id);
    const staffView = await call(h.url, `/api/orders/${order.order_id}`, { token: staff });
    expect(staffView.body.payment).not.to.have.property('client_secret');

    standIn().confirm(order.payment!.payment_intent_id, 'pm_card_visa');
    const event = await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', order.payment!.payment_intent_id));
    expect(event.status).to.equal(200);
    const placed = await orderOf(h.url, token, order.order_id);
    expect(placed.status).to.equal('placed');
    expect(placed.payment).to.deep.include({ status: 'authorized' });
    expect(placed.payment).not.to.have.property('client_secret');
    expect(await kitchenIds(h.url, staff)).to.include(order.order_id);

    const accepted = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
    expect(accepted.status, accepted.text).to.equal(200);
    expect(accepted.body.payment).to.deep.include({ status: 'captured', amount_captured: order.amount });
    expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('succeeded');

    const cancelled = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'cancelled', reason: 'oven broke' } });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.payment).to.deep.include({ status: 'refunded', amount_refunded: order.amount });
  });

  it('answers a replay of the Idempotency-Key with the same order and client secret (one intent)', async () => {
    const key = `replay-${Date.now()}`;
    const first = await place(key);
    const again = await place(key);
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    const creates = standIn().requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.params['metadata[order_id]'] === first.body.order_id);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).to.equal(1);
  });

  it('keeps the order awaiting after a declined card, and places it when another card is good', async () => {
    const order = (await place(`declined-${Date.now()}`)).body as OrderJson;
    const intentId = order.payment!.payment_intent_id;
    standIn().confirm(intentId, 'pm_card_chargeDeclined');
    expect((await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.payment_failed', intentId))).status).to.equal(200);
    expect((await orderOf(h.url, token, order.order_id)).status).to.equal('awaiting_payment');
    standIn().confirm(intentId, 'pm_card_visa');
    await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', intentId));
    expect((await orderOf(h.url, token, order.order_id)).status).to.equal('placed');
  });

  it('cancels the order (payment_failed) once its intent is canceled after a decline, and frees nothing twice', async () => {
    const order = (await place(`failed-${Date.now()}`)).body as OrderJson;
    const intentId = order.payment!.payment_intent_id;
    standIn().confirm(intentId, 'pm_card_chargeDeclined');
    await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.payment_failed', intentId));
    expect((await orderOf(h.url, token, order.order_id)).status, 'a decline is not final').to.equal('awaiting_payment');
    // The intent is canceled on Stripe's side (the Dashboard, or the API by another system).
    const canceled = await fetch(`${standIn().url}/v1/payment_intents/${intentId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${standIn().apiKey}` } });
    expect(canceled.status).to.equal(200);
    const event = standIn().signedEvent('payment_intent.canceled', intentId);
    expect((await standIn().postEvent(webhookUrl(), event)).status).to.equal(200);
    const now = await orderOf(h.url, token, order.order_id);
    expect(now).to.deep.include({ status: 'cancelled', reason: 'payment_failed' });
    expect(now.payment!.amount_captured).to.equal(0);
    expect(await kitchenIds(h.url, staff)).not.to.include(order.order_id);
    expect((await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.canceled', intentId))).status).to.equal(200);
    expect((await orderOf(h.url, token, order.order_id)).version, 'a second cancellation event changes nothing').to.equal(now.version);
  });

  describe('events', () => {
    it('refuses a forged, missing or stale signature with 400 invalid_signature and changes nothing', async () => {
      const order = (await place(`forged-${Date.now()}`)).body as OrderJson;
      const intentId = order.payment!.payment_intent_id;
      standIn().confirm(intentId, 'pm_card_visa');
      const forged = standIn().signedEvent('payment_intent.amount_capturable_updated', intentId, { secret: 'whsec_not_ours' });
      expectError(await asResponse(await standIn().postEvent(webhookUrl(), forged)), 400, 'invalid_signature');
      const stale = standIn().signedEvent('payment_intent.amount_capturable_updated', intentId, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      expectError(await asResponse(await standIn().postEvent(webhookUrl(), stale)), 400, 'invalid_signature');
      const good = standIn().signedEvent('payment_intent.amount_capturable_updated', intentId);
      const missing = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: good.body });
      expectError(await asResponse(missing), 400, 'invalid_signature');
      // The body changed after signing: the signature no longer verifies.
      const tampered = await fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': good.signature },
        body: good.body.replace('"livemode":false', '"livemode":true'),
      });
      expectError(await asResponse(tampered), 400, 'invalid_signature');
      expect((await orderOf(h.url, token, order.order_id)).status).to.equal('awaiting_payment');
    });

    it('takes an event repeated, concurrently too, once; and ignores an intent it does not know', async () => {
      const order = (await place(`repeat-${Date.now()}`)).body as OrderJson;
      const intentId = order.payment!.payment_intent_id;
      standIn().confirm(intentId, 'pm_card_visa');
      const event = standIn().signedEvent('payment_intent.amount_capturable_updated', intentId);
      const answers = await Promise.all(Array.from({ length: 5 }, () => standIn().postEvent(webhookUrl(), event)));
      for (const answer of answers) expect([200, 503]).to.include(answer.status);
      const placed = await orderOf(h.url, token, order.order_id);
      expect(placed.status).to.equal('placed');
      expect(placed.version).to.equal(2);
      expect((await standIn().postEvent(webhookUrl(), event)).status).to.equal(200);
      expect((await orderOf(h.url, token, order.order_id)).version).to.equal(2);
      // A signed event about somebody else's intent.
      const body = JSON.stringify({ id: `evt_other_${Date.now()}`, object: 'event', type: 'payment_intent.succeeded', data: { object: { ...standIn().intent(intentId), id: 'pi_not_ours' } } });
      const other = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(body, standIn().webhookSecret) }, body });
      expect(other.status).to.equal(200);
    });

    it('changes nothing with an event that arrives after a later one', async () => {
      const order = (await place(`late-${Date.now()}`)).body as OrderJson;
      const intentId = order.payment!.payment_intent_id;
      const early = standIn().signedEvent('payment_intent.created', intentId);
      standIn().confirm(intentId, 'pm_card_visa');
      await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', intentId));
      const placed = await orderOf(h.url, token, order.order_id);
      expect((await standIn().postEvent(webhookUrl(), early)).status).to.equal(200);
      expect(await orderOf(h.url, token, order.order_id)).to.deep.equal(placed);
    });
  });

  describe('the provider down', () => {
    it('answers 503 at placement and the retry with the same key completes it: one order', async () => {
      const key = `down-${Date.now()}`;
      standIn().mode = 'down';
      try {
        const res = await place(key);
        expectError(res, 503, 'payment_provider_unavailable');
        expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        standIn().mode = 'up';
      }
      const retried = await place(key);
      expect(retried.status, retried.text).to.equal(201);
      expect((await place(key)).body.order_id).to.equal(retried.body.order_id);
    });

    it('answers 503 at acceptance and the order stays placed; then accepts', async () => {
      const order = await paidOrder(`down-accept-${Date.now()}`);
      standIn().mode = 'down';
      try {
        const res = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
        expectError(res, 503, 'payment_provider_unavailable');
      } finally {
        standIn().mode = 'up';
      }
      expect((await orderOf(h.url, token, order.order_id)).status).to.equal('placed');
      const res = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
      expect(res.status, res.text).to.equal(200);
    });

    it('answers 503 to a refund, and the retry with the same key refunds once', async () => {
      const order = await paidOrder(`down-refund-${Date.now()}`);
      await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
      const refund = (key: string) =>
        call(h.url, `/api/staff/orders/${order.order_id}/refunds`, { token: staff, json: { amount: 100, reason: 'cold' }, headers: { 'Idempotency-Key': key } });
      standIn().mode = 'down';
      try {
        expectError(await refund('rk'), 503, 'payment_provider_unavailable');
      } finally {
        standIn().mode = 'up';
      }
      const made = await refund('rk');
      expect(made.status, made.text).to.equal(201);
      expect(made.body).to.deep.include({ amount: 100, reason: 'cold' });
      expect((await refund('rk')).body.refund_id).to.equal(made.body.refund_id);
      const now = await orderOf(h.url, token, order.order_id);
      expect(now.payment).to.deep.include({ amount_refunded: 100, status: 'partially_refunded' });
      expect(now.payment!.refunds).to.have.length(1);
      expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('succeeded');
    });
  });

  describe('what the provider decides', () => {
    it('refuses to accept an order whose intent can no longer be captured (422 payment_failed); it stays placed, and the rejection records it voided', async () => {
      const order = await paidOrder(`lapsed-${Date.now()}`);
      const intentId = order.payment!.payment_intent_id;
      // Cancelled on Stripe's side (the Dashboard, or a hold that lapsed), no event received.
      const canceled = await fetch(`${standIn().url}/v1/payment_intents/${intentId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${standIn().apiKey}` } });
      expect(canceled.status).to.equal(200);
      const move = (json: Record<string, unknown>) => call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json });
      expectError(await move({ status: 'accepted' }), 422, 'payment_failed');
      expect((await orderOf(h.url, token, order.order_id)).status).to.equal('placed');
      const rejected = await move({ status: 'rejected', reason: 'payment lapsed' });
      expect(rejected.status, rejected.text).to.equal(200);
      expect(rejected.body.payment).to.deep.include({ status: 'voided', amount_captured: 0 });
    });

    it("settles a refund from Stripe's events: one that fails after it succeeded frees its amount, once", async () => {
      const order = await paidOrder(`refund-failed-${Date.now()}`);
      await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
      const refund = (amount: number, key: string) =>
        call(h.url, `/api/staff/orders/${order.order_id}/refunds`, { token: staff, json: { amount, reason: 'cold' }, headers: { 'Idempotency-Key': key } });
      const made = await refund(100, 'first');
      expect(made.body).to.deep.include({ amount: 100, status: 'succeeded' });
      const intentId = order.payment!.payment_intent_id;
      const providerRefundId = standIn().refunds(intentId)[0]!['id'] as string;
      standIn().failRefund(providerRefundId);
      const event = standIn().signedRefundEvent('refund.failed', providerRefundId);
      for (let i = 0; i < 2; i++) expect((await standIn().postEvent(webhookUrl(), event)).status).to.equal(200);
      const failed = await orderOf(h.url, token, order.order_id);
      expect(failed.payment).to.deep.include({ status: 'captured', amount_refunded: 0 });
      expect(failed.payment!.refunds.map((r) => r.status)).to.deep.equal(['failed']);
      // A later `refund.updated` with the same failed refund (another event id) changes nothing; the amount may be refunded again.
      expect((await standIn().postEvent(webhookUrl(), standIn().signedRefundEvent('refund.updated', providerRefundId))).status).to.equal(200);
      expect((await orderOf(h.url, token, order.order_id)).version).to.equal(failed.version);
      expect((await refund(order.amount, 'again')).body).to.deep.include({ amount: order.amount, status: 'succeeded' });
    });

    it("makes a cancellation's refund again when the first fails after it succeeded: the customer gets the money back", async () => {
      const order = await paidOrder(`cancel-refund-failed-${Date.now()}`);
      const staffMove = (json: Record<string, unknown>) => call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json });
      expect((await staffMove({ status: 'accepted' })).status).to.equal(200);
      expect((await staffMove({ status: 'cancelled', reason: 'oven broke' })).status).to.equal(200);
      const intentId = order.payment!.payment_intent_id;
      /** What the customer has back: the stand-in's refunds that succeeded. */
      const givenBack = () => standIn().refunds(intentId).reduce((sum, r) => sum + (r['status'] === 'succeeded' ? (r['amount'] as number) : 0), 0);
      expect(givenBack()).to.equal(order.amount);
      const first = standIn().refunds(intentId)[0]!['id'] as string;
      standIn().failRefund(first);
      expect((await standIn().postEvent(webhookUrl(), standIn().signedRefundEvent('refund.failed', first))).status).to.equal(200);
      const owed = await orderOf(h.url, token, order.order_id);
      expect(owed.payment!.refunds.map((r) => r.status)).to.deep.equal(['failed', 'pending']);
      expect(givenBack()).to.equal(0);
      await sweepNow(order.order_id);
      const now = await orderOf(h.url, token, order.order_id);
      expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(['failed', 'succeeded']);
      expect(now.payment).to.deep.include({ status: 'refunded', amount_refunded: order.amount });
      expect(givenBack()).to.equal(order.amount);
    });
  });

  describe("the kitchen's word first, the money after", () => {
    const move = (orderId: string, json: Record<string, unknown>) => call(h.url, `/api/staff/orders/${orderId}/status`, { token: staff, json });
    const refundedAtProvider = (intentId: string) => refundedBy(standIn(), intentId);

    it('rejects at once while the provider is down (the card still held), and the sweeper voids it once the provider is back', async () => {
      const order = await paidOrder(`down-reject-${Date.now()}`);
      standIn().mode = 'down';
      try {
        const res = await move(order.order_id, { status: 'rejected', reason: 'closing' });
        expect(res.status, res.text).to.equal(200);
        expect({ status: res.body.status, payment: res.body.payment.status }).to.deep.equal({ status: 'rejected', payment: 'authorized' });
      } finally {
        standIn().mode = 'up';
      }
      expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('requires_capture');
      await sweepNow(order.order_id);
      expect((await orderOf(h.url, token, order.order_id)).payment!.status).to.equal('voided');
      expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('canceled');
    });

    it('cancels after capture while the provider is down with the whole refund pending; the sweeper makes it once', async () => {
      const order = await paidOrder(`down-cancel-${Date.now()}`);
      expect((await move(order.order_id, { status: 'accepted' })).status).to.equal(200);
      standIn().mode = 'down';
      try {
        const res = await move(order.order_id, { status: 'cancelled', reason: 'fire' });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.payment).to.deep.include({ status: 'refunded', amount_refunded: order.amount });
        expect(res.body.payment.refunds.map((r: { status: string }) => r.status)).to.deep.equal(['pending']);
      } finally {
        standIn().mode = 'up';
      }
      expect(refundedAtProvider(order.payment!.payment_intent_id)).to.equal(0);
      await sweepNow(order.order_id);
      await sweepNow(order.order_id);
      expect(refundedAtProvider(order.payment!.payment_intent_id)).to.equal(order.amount);
      const now = await orderOf(h.url, token, order.order_id);
      expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(['succeeded']);
    });

    it('an acceptance racing a rejection: one wins, and the money follows the winner (a capture the loser made is refunded)', async () => {
      const order = await paidOrder(`race-${Date.now()}`);
      const [accepted, rejected] = await withSlowProvider(standIn(), 600, async () => {
        // The capture is on its way to the provider when the rejection comes in on another screen.
        const accepting = move(order.order_id, { status: 'accepted' });
        await pause(150);
        return Promise.all([accepting, move(order.order_id, { status: 'rejected', reason: 'out of dough' })]);
      });
      expect([accepted.status, rejected.status].sort(), `${accepted.text} / ${rejected.text}`).to.deep.equal([200, 409]);
      const now = await orderOf(h.url, token, order.order_id);
      const intentId = order.payment!.payment_intent_id;
      const captured = standIn().intent(intentId)['status'] === 'succeeded' ? order.amount : 0;
      expect({ captured: now.payment!.amount_captured, refunded: now.payment!.amount_refunded }).to.deep.equal({ captured, refunded: refundedAtProvider(intentId) });
      if (now.status === 'accepted') expect(refundedAtProvider(intentId)).to.equal(0);
      else expect({ status: now.status, refunded: refundedAtProvider(intentId) }).to.deep.equal({ status: 'rejected', refunded: captured });
    });
  });

  describe('refunds', () => {
    it('refuses more than captured (422 refund_exceeds_captured) and an order never captured', async () => {
      const order = await paidOrder(`over-${Date.now()}`);
      const refund = (amount: number, key: string) =>
        call(h.url, `/api/staff/orders/${order.order_id}/refunds`, { token: staff, json: { amount, reason: 'x' }, headers: { 'Idempotency-Key': key } });
      expectError(await refund(1, 'before-capture'), 422, 'refund_exceeds_captured');
      await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
      expectError(await refund(order.amount + 1, 'too-much'), 422, 'refund_exceeds_captured');
      expect((await refund(order.amount, 'all')).status).to.equal(201);
      expectError(await refund(1, 'one-more'), 422, 'refund_exceeds_captured');
      expect((await orderOf(h.url, token, order.order_id)).payment).to.deep.include({ status: 'refunded', amount_refunded: order.amount });
    });

    it('voids the intent when the kitchen rejects: nothing is charged', async () => {
      const order = await paidOrder(`reject-${Date.now()}`);
      const res = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'rejected', reason: 'closing' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.payment.status).to.equal('voided');
      expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('canceled');
    });
  });

  describe('the sweeper, with events switched off', () => {
    it('places a paid order whose event never came, by reading its intent', async () => {
      const order = (await place(`sweep-${Date.now()}`)).body as OrderJson;
      standIn().confirm(order.payment!.payment_intent_id, 'pm_card_visa');
      // No event is sent. The check is due after two quiet minutes: sweep as if they had passed.
      const sweeper = h.server.storefront.paymentSweeper!;
      const check = await sweeper.check((await h.server.storefront.getOrder.execute({ viewer: { customerId: 'x', role: 'staff' }, orderId: order.order_id })));
      expect(check.status).to.equal('placed');
      expect((await orderOf(h.url, token, order.order_id)).status).to.equal('placed');
    });
  });
});

describe('Payments: the sweeper on the service clock (e2e, Stripe stand-in, events off)', function () {
  this.timeout(30_000);
  const clock = new FakeClock(Date.now());
  const { h, standIn } = usePayingServer({ PAYMENT_WINDOW_MINUTES: '5' }, { clock });
  const MINUTE = 60_000;

  async function anOrder(): Promise<{ token: string; order: OrderJson }> {
    const token = await customerToken(h.url);
    const productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const res = await call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] } });
    expect(res.status, res.text).to.equal(201);
    return { token, order: res.body as OrderJson };
  }

  it('places a paid order after two quiet minutes, and cancels an unpaid one when its window passes', async () => {
    const paid = await anOrder();
    const unpaid = await anOrder();
    standIn().confirm(paid.order.payment!.payment_intent_id, 'pm_card_visa');
    const sweeper = h.server.storefront.paymentSweeper!;
    await sweeper.sweep();
    expect((await orderOf(h.url, paid.token, paid.order.order_id)).status, 'not due before two quiet minutes').to.equal('awaiting_payment');
    clock.advance(2 * MINUTE + 1000);
    await sweeper.sweep();
    expect((await orderOf(h.url, paid.token, paid.order.order_id)).status).to.equal('placed');
    expect((await orderOf(h.url, unpaid.token, unpaid.order.order_id)).status, 'unpaid, still in its window').to.equal('awaiting_payment');
    clock.advance(4 * MINUTE);
    await sweeper.sweep();
    const expired = await orderOf(h.url, unpaid.token, unpaid.order.order_id);
    expect(expired).to.deep.include({ status: 'cancelled', reason: 'payment_expired' });
    expect(expired.payment!.status).to.equal('voided');
    expect(standIn().intent(unpaid.order.payment!.payment_intent_id)['status']).to.equal('canceled');
  });
});

describe('Payments: an authorization that lapses before the kitchen accepts (e2e, Stripe stand-in)', function () {
  this.timeout(30_000);
  const clock = new FakeClock(Date.now());
  const { h, standIn, webhookUrl } = usePayingServer({}, { clock }, clock);
  const DAY = 24 * 3600_000;

  it("cancels the placed order (payment_expired) on Stripe's canceled event: out of the kitchen, nothing charged, no acceptance", async () => {
    const token = await customerToken(h.url);
    const staff = await staffToken(h.url);
    const productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const placed = await call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] }, headers: { 'Idempotency-Key': `lapse-${Date.now()}` } });
    expect(placed.status, placed.text).to.equal(201);
    const order = placed.body as OrderJson;
    const intentId = order.payment!.payment_intent_id;
    const now = () => ({ timestamp: Math.floor(Date.now() / 1000) });
    standIn().confirm(intentId, 'pm_card_visa');
    expect((await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', intentId, now()))).status).to.equal(200);
    expect(await kitchenIds(h.url, staff)).to.include(order.order_id);
    // Eight days on, the kitchen never accepted: Stripe has let the authorization lapse.
    clock.advance(8 * DAY);
    expect(standIn().intent(intentId)['status']).to.equal('canceled');
    expect((await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.canceled', intentId, now()))).status).to.equal(200);
    // Logged in again: a week has passed for the service too.
    const [owner, kitchen] = [await customerToken(h.url), await staffToken(h.url)];
    const lapsed = await orderOf(h.url, owner, order.order_id);
    expect(lapsed).to.deep.include({ status: 'cancelled', reason: 'payment_expired' });
    expect(lapsed.payment).to.deep.include({ status: 'voided', amount_captured: 0 });
    expect(await kitchenIds(h.url, kitchen)).not.to.include(order.order_id);
    const accept = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: kitchen, json: { status: 'accepted' } });
    expect(accept.status, accept.text).to.equal(409);
  });
});

describe('Payments: an awaiting order holds its slot place (e2e, Stripe stand-in)', function () {
  this.timeout(30_000);
  // Wednesday 2030-01-16, 12:00 UTC; open all day; one order a slot.
  const clock = new FakeClock(Date.UTC(2030, 0, 16, 12, 0, 0));
  const { h } = usePayingServer({ STOREFRONT_OPENING_HOURS: 'Mo-Su 11:00-22:00', STOREFRONT_SLOT_CAPACITY: '1', PAYMENT_WINDOW_MINUTES: '5' }, { clock });
  const MINUTE = 60_000;

  it('refuses the slot while the first order awaits its payment, and gives it back when that order is cancelled or expires', async () => {
    const token = await customerToken(h.url);
    const productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const forSlot = (time: string) => call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }], fulfilment: { type: 'pickup', time } } });
    const remaining = async (start: string) =>
      ((await call(h.url, '/api/store/slots?type=pickup')).body.slots as { start: string; remaining: number }[]).find((slot) => slot.start === start)?.remaining;

    // Cancelled by the customer while awaiting.
    const first = await forSlot('2030-01-16T18:00:00Z');
    expect(first.status, first.text).to.equal(201);
    expect(first.body.status).to.equal('awaiting_payment');
    expect(await remaining('2030-01-16T18:00:00.000Z'), 'a full slot is not offered').to.equal(undefined);
    expectError(await forSlot('2030-01-16T18:05:00Z'), 422, 'slot_unavailable');
    expect((await call(h.url, `/api/orders/${first.body.order_id}/cancel`, { token, method: 'POST' })).status).to.equal(200);
    expect(await remaining('2030-01-16T18:00:00.000Z')).to.equal(1);
    expect((await forSlot('2030-01-16T18:05:00Z')).status, 'the place is free again').to.equal(201);

    // Expired unpaid: the sweeper cancels it when its window passes.
    const second = await forSlot('2030-01-16T19:00:00Z');
    expect(second.status, second.text).to.equal(201);
    expectError(await forSlot('2030-01-16T19:05:00Z'), 422, 'slot_unavailable');
    clock.advance(6 * MINUTE);
    await h.server.storefront.paymentSweeper!.sweep();
    expect((await call(h.url, `/api/orders/${second.body.order_id}`, { token })).body).to.deep.include({ status: 'cancelled', reason: 'payment_expired' });
    expect(await remaining('2030-01-16T19:00:00.000Z')).to.equal(1);
    expect((await forSlot('2030-01-16T19:05:00Z')).status, 'the place is free again').to.equal(201);
  });
});

describe('Payments: who sees an unpaid order (e2e, Stripe stand-in)', function () {
  this.timeout(30_000);
  const { h, standIn, webhookUrl } = usePayingServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
    await register(h.url, await adminToken(h.url), receiver);
  });
  after(async () => {
    await receiver?.close();
  });

  it('sends the kitchen and webhooks nothing until paid, the owner every step; then order.placed and order.refunded', async () => {
    const token = await customerToken(h.url);
    const staff = await staffToken(h.url);
    const productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const kitchen = await follow(h.url, '/api/staff/events', staff);
    const placedRes = await call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] } });
    expect(placedRes.status, placedRes.text).to.equal(201);
    const order = placedRes.body as OrderJson;
    const mine = await follow(h.url, `/api/orders/${order.order_id}/events`, token);
    const snapshot = await mine.nextEvent(5_000);
    expect(dataOf(snapshot)).to.include({ status: 'awaiting_payment', version: 1 });
    expect(await kitchen.quietFor(500), 'the kitchen hears nothing of an unpaid order').to.equal(true);

    standIn().confirm(order.payment!.payment_intent_id, 'pm_card_visa');
    await standIn().postEvent(webhookUrl(), standIn().signedEvent('payment_intent.amount_capturable_updated', order.payment!.payment_intent_id));
    const step = await mine.nextEvent(5_000);
    expect(step?.event).to.equal('order.status');
    expect(dataOf(step)).to.include({ status: 'placed', version: 2 });
    const kitchenPlaced = await kitchen.nextEvent(5_000);
    expect(kitchenPlaced?.event).to.equal('order.placed');
    expect(dataOf(kitchenPlaced)).to.include({ order_id: order.order_id, status: 'placed', version: 2 });
    expect(dataOf(kitchenPlaced)['payment']).not.to.have.property('client_secret');

    await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
    const refund = await call(h.url, `/api/staff/orders/${order.order_id}/refunds`, { token: staff, json: { amount: 50, reason: 'napkins missing' }, headers: { 'Idempotency-Key': 'w1' } });
    expect(refund.status, refund.text).to.equal(201);
    await receiver.waitFor((r) => r.accepted.some((x) => x.json?.type === 'order.refunded'), 10_000, 'order.refunded');
    const ours = receiver.accepted.filter((x) => (x.json?.data as { order_id?: string } | undefined)?.order_id === order.order_id);
    expect(ours.every((x) => x.verifiedWith.length > 0), 'every body verified by the Standard Webhooks library').to.equal(true);
    expect(ours.map((x) => x.json!.type)).to.deep.equal(['order.placed', 'order.status', 'order.refunded']);
    const placedBody = ours[0]!.json!.data as OrderJson;
    expect(placedBody).to.include({ status: 'placed', version: 2 });
    expect(ours.some((x) => x.body.includes('_secret_')), 'no client secret in a webhook').to.equal(false);
    const refunded = ours[2]!.json!.data as { refund: { amount: number; reason: string }; payment: PaymentJson };
    expect(refunded.refund).to.include({ amount: 50, reason: 'napkins missing' });
    expect(refunded.payment).to.include({ status: 'partially_refunded', amount_refunded: 50 });
    await kitchen.cancel();
    await mine.cancel();
  });

  it('sends nothing anywhere but the owner for an order cancelled unpaid', async () => {
    const token = await customerToken(h.url);
    const staff = await staffToken(h.url);
    const productId = (await availableProducts(h.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const kitchen = await follow(h.url, '/api/staff/events', staff);
    const before = receiver.accepted.length;
    const order = (await call(h.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] } })).body as OrderJson;
    const cancelled = await call(h.url, `/api/orders/${order.order_id}/cancel`, { token, method: 'POST' });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.payment.status).to.equal('voided');
    expect(standIn().intent(order.payment!.payment_intent_id)['status']).to.equal('canceled');
    expect(await kitchen.quietFor(700)).to.equal(true);
    expect(receiver.accepted.length).to.equal(before);
    await kitchen.cancel();
  });
});

/** Two instances on one store (memory, or a PostgreSQL database of their own) paying through one stand-in (per suite). */
function useTwoPayingInstances(databaseName: string): { servers: () => [ComposedServer, ComposedServer]; standIn: () => StripeStandIn } {
  let database: ServerDatabase | undefined;
  let standIn: StripeStandIn | undefined;
  const memory = createMemoryAdapters();
  const servers: ComposedServer[] = [];
  before(async () => {
    standIn = await StripeStandIn.start({ clock: systemClock });
    if (postgresMode()) database = await postgresDatabase(databaseName);
    const env = {
      TOKEN_SECRET_KEY: generateSigningKey(),
      STOREFRONT_PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: standIn.apiKey,
      STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
      STRIPE_API_BASE: standIn.url,
    };
    for (let i = 0; i < 2; i++) {
      servers.push(
        database === undefined
          ? await composeStorefront(env, (container) => container.rebind(TYPES.MemoryAdapters).toConstantValue(memory))
          : await composeStorefront(database.apply(env)),
      );
    }
  });
  after(async () => {
    for (const server of servers) await server.close();
    await database?.release();
    await standIn?.close();
  });
  return { servers: () => servers as [ComposedServer, ComposedServer], standIn: () => standIn! };
}

describe('Payments across two instances (e2e, Stripe stand-in)', function () {
  this.timeout(60_000);
  const two = useTwoPayingInstances('storefront_payments_two');

  it('applies one event received by both at once exactly once', async () => {
    const [a, b] = two.servers();
    const standIn = two.standIn();
    const token = await customerToken(a.url);
    const productId = (await availableProducts(a.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const placed = await call(a.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] } });
    expect(placed.status, placed.text).to.equal(201);
    const intentId = placed.body.payment.payment_intent_id as string;
    standIn.confirm(intentId, 'pm_card_visa');
    const event = standIn.signedEvent('payment_intent.amount_capturable_updated', intentId);
    const answers = await Promise.all([a, b, a, b].map((s) => standIn.postEvent(`${s.url}/api/payments/stripe/webhook`, event)));
    expect(answers.filter((r) => r.status === 200).length).to.be.greaterThan(0);
    for (const answer of answers) expect([200, 503]).to.include(answer.status);
    const seen = await call(b.url, `/api/orders/${placed.body.order_id}`, { token });
    expect(seen.body).to.deep.include({ status: 'placed', version: 2 });
  });
});

describe('Payments: moves and events racing across two instances (e2e, Stripe stand-in)', function () {
  this.timeout(60_000);
  const two = useTwoPayingInstances('storefront_payments_races');

  async function setUp() {
    const [a, b] = two.servers();
    const standIn = two.standIn();
    const token = await customerToken(a.url);
    const staff = await staffToken(b.url);
    const productId = (await availableProducts(a.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const placed = await call(a.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] } });
    expect(placed.status, placed.text).to.equal(201);
    const order = placed.body as OrderJson;
    const intentId = order.payment!.payment_intent_id;
    const tell = (server: ComposedServer) => standIn.postEvent(`${server.url}/api/payments/stripe/webhook`, standIn.signedEvent('payment_intent.amount_capturable_updated', intentId));
    return { a, b, standIn, token, staff, order, intentId, tell };
  }

  it('accepted on one instance, rejected on the other at once: one wins, and the money follows it', async () => {
    const { a, b, standIn, token, staff, order, intentId, tell } = await setUp();
    standIn.confirm(intentId, 'pm_card_visa');
    expect((await tell(b)).status).to.equal(200);
    const move = (server: ComposedServer, json: Record<string, unknown>) => call(server.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json });
    const answers = await withSlowProvider(standIn, 600, async () => {
      const accepting = move(a, { status: 'accepted' });
      await pause(150);
      return Promise.all([accepting, move(b, { status: 'rejected', reason: 'out of dough' })]);
    });
    expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join(' / ')).to.deep.equal([200, 409]);
    const now = await orderOf(b.url, token, order.order_id);
    const captured = standIn.intent(intentId)['status'] === 'succeeded' ? order.amount : 0;
    expect({ captured: now.payment!.amount_captured, refunded: now.payment!.amount_refunded }).to.deep.equal({ captured, refunded: refundedBy(standIn, intentId) });
    expect(refundedBy(standIn, intentId)).to.equal(now.status === 'accepted' ? 0 : captured);
  });

  it("the owner's cancel on one instance, the 'authorized' event on the other meanwhile: cancelled, the card released, never in the kitchen", async () => {
    const { a, b, standIn, token, staff, order, intentId, tell } = await setUp();
    standIn.confirm(intentId, 'pm_card_visa');
    const [cancelled, event] = await withSlowProvider(standIn, 600, async () => {
      const cancelling = call(a.url, `/api/orders/${order.order_id}/cancel`, { token, method: 'POST' });
      await pause(150);
      // Stripe's event, sent as the intent stood when the customer paid (before our void acted).
      return Promise.all([cancelling, tell(b)]);
    });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(event.status).to.equal(200);
    const now = await orderOf(b.url, token, order.order_id);
    expect({ status: now.status, payment: now.payment!.status }).to.deep.equal({ status: 'cancelled', payment: 'voided' });
    expect(standIn.intent(intentId)['status']).to.equal('canceled');
    expect(await kitchenIds(b.url, staff)).not.to.include(order.order_id);
  });
});

describe('Payments: an instance fails between the provider\'s answer and its write (e2e, Stripe stand-in)', function () {
  this.timeout(60_000);
  const two = useTwoPayingInstances('storefront_payments_crash');

  it('gives the retry one order with one payable intent; the intent of the failed attempt is never shown, charged or stored', async () => {
    const [a, b] = two.servers();
    const standIn = two.standIn();
    // Instance a's gateway: the provider answers, then the instance is gone before it writes anything.
    // (Every time for the first order id it prices: the request's own retry through the
    // step-by-step path meets the same end, as a process that died would never retry.)
    const gateway = resolve(a.container, TYPES.CardPayments)!.gateway;
    const authorize = gateway.authorize.bind(gateway);
    const lost: string[] = [];
    let doomed: string | undefined;
    gateway.authorize = async (request: AuthorizationRequest) => {
      const outcome = await authorize(request);
      doomed ??= request.orderId;
      if (request.orderId !== doomed) return outcome;
      lost.push(outcome.intentId);
      throw new Error('the instance stopped between the provider\'s answer and its write');
    };
    const staff = await staffToken(b.url);
    const token = await customerToken(a.url);
    const productId = (await availableProducts(a.url)).find((p) => p.option_groups.length === 0)!.product_id;
    const place = (server: ComposedServer) =>
      call(server.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] }, headers: { 'Idempotency-Key': 'crash-between-answer-and-write' } });
    const ordersBefore = (await call(b.url, '/api/orders?limit=1', { token })).body.meta.total as number;

    const failed = await place(a);
    expect(failed.status, failed.text).to.be.within(500, 599);
    expect(failed.text, 'no stack, no intent, no secret in the failure').not.to.match(/\.js:\d+|pi_|secret/);
    expect(lost.length, 'the provider answered the failed attempt').to.be.greaterThan(0);
    expect(new Set(lost).size, 'one intent for the failed attempt, however often it asked').to.equal(1);

    const retried = await place(b);
    expect(retried.status, retried.text).to.equal(201);
    const order = retried.body as OrderJson;
    expect(order.status).to.equal('awaiting_payment');
    const replayed = await place(a);
    expect(replayed.status, replayed.text).to.equal(201);
    expect(replayed.body).to.deep.include({ order_id: order.order_id });
    expect((replayed.body as OrderJson).payment!.payment_intent_id, 'the replay shows the same intent').to.equal(order.payment!.payment_intent_id);
    expect((await call(b.url, '/api/orders?limit=1', { token })).body.meta.total, 'one order for the key').to.equal(ordersBefore + 1);

    // One intent for the stored order: every intent request naming it carried one key.
    const keysForOrder = new Set(
      standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.params['metadata[order_id]'] === order.order_id).map((r) => r.idempotencyKey),
    );
    expect(keysForOrder.size, 'one intent per stored order').to.equal(1);
    const [orphan] = lost as [string];
    if (orphan !== order.payment!.payment_intent_id) {
      // A new reservation for the retry: the first intent belongs to an order id nothing stored.
      const orphanOrder = standIn.intent(orphan)['metadata'] as Record<string, string>;
      expect((await call(b.url, `/api/orders/${orphanOrder['order_id']}`, { token })).status).to.equal(404);
    }

    // The customer pays the order they were shown; the kitchen accepts it: captured once, the other intent never charged.
    standIn.confirm(order.payment!.payment_intent_id, 'pm_card_visa');
    const event = standIn.signedEvent('payment_intent.amount_capturable_updated', order.payment!.payment_intent_id);
    expect((await standIn.postEvent(`${b.url}/api/payments/stripe/webhook`, event)).status).to.equal(200);
    const accepted = await call(b.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
    expect(accepted.status, accepted.text).to.equal(200);
    expect((accepted.body as OrderJson).payment).to.deep.include({ status: 'captured', amount_captured: order.amount });
    expect(standIn.intent(order.payment!.payment_intent_id)).to.deep.include({ status: 'succeeded', amount_received: order.amount });
    if (orphan !== order.payment!.payment_intent_id) {
      expect(standIn.intent(orphan)).to.deep.include({ status: 'requires_payment_method', amount_received: 0 });
    }
  });
});

async function asResponse(res: Response) {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: expectError says so
  }
  return { status: res.status, headers: res.headers, text, body } as unknown as Parameters<typeof expectError>[0];
}
