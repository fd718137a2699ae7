/**
 * Card payments over HTTP (DECISIONS "Payments"), on a real socket with the memory card network: the
 * client secret's audience, the provider's events route (a fake intake stands in for Stripe's
 * signature check) and staff refunds. The end-to-end flow against a Stripe stand-in is the app's.
 */
import http from 'node:http';
import { InMemoryPaymentGateway, InMemoryProviderEvents } from '@storefront/adapters-memory';
import type { ProviderEventInput } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import type { PaymentEventsIntake } from '../src/index.js';
import { openStream } from './event-server.js';
import { loginAs, serve, type TestServer } from './support.js';

const WEBHOOK = '/api/payments/stripe/webhook';
const GOOD = 'good-signature';

interface PaymentBody {
  status: string;
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  payment_intent_id: string;
  client_secret?: string;
  refunds: { refund_id: string; amount: number; reason: string; status: string; created_at: string }[];
}
interface OrderBody {
  order_id: string;
  status: string;
  version: number;
  amount: number;
  status_history: { status: string }[];
  payment: PaymentBody | null;
}
interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Stripe's signature check, played: `GOOD` verifies, anything else (or none) does not; the bodies it was given are kept. */
class FakeIntake implements PaymentEventsIntake {
  readonly events = new Map<string, ProviderEventInput>();
  readonly bodies: Buffer[] = [];

  verify(rawBody: Buffer, signature: string | undefined): ProviderEventInput | null {
    this.bodies.push(rawBody);
    if (signature !== GOOD) return null;
    const id = (JSON.parse(rawBody.toString()) as { id: string }).id;
    return this.events.get(id) ?? { eventId: id };
  }
}

async function call(base: string, method: string, path: string, options: { token?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** A POST to the events route on a raw socket, its body written by `send`; the answer within 2 s. */
function rawRequest(base: string, headers: http.OutgoingHttpHeaders, send: (req: http.ClientRequest) => void): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: Number(url.port), method: 'POST', path: WEBHOOK, headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text });
      });
    });
    const timer = setTimeout(() => req.destroy(new Error('no answer within 2 s')), 2_000);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    send(req);
  });
}

const orderOf = (answer: Answer): OrderBody => answer.body as unknown as OrderBody;

describe('Card payments over HTTP', function () {
  this.timeout(20_000);
  let server: TestServer;
  let gateway: InMemoryPaymentGateway;
  let providerEvents: InMemoryProviderEvents;
  let intake: FakeIntake;
  let alice: string;
  let staff: string;
  let productId: string;
  let eventCount = 0;

  const place = (key?: string): Promise<Answer> =>
    call(server.url, 'POST', '/api/orders', { token: alice, json: { items: [{ product_id: productId, quantity: 1 }] }, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });
  /** `signature` null: no Stripe-Signature header at all. */
  const postEvent = (id: string, signature: string | null = GOOD): Promise<Answer> =>
    call(server.url, 'POST', WEBHOOK, { body: JSON.stringify({ id }), headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) } });
  const read = async (orderId: string, token = alice): Promise<OrderBody> => orderOf(await call(server.url, 'GET', `/api/orders/${orderId}`, { token }));

  /** The customer pays with a good card, and the provider's event about it arrives: the order is placed. */
  const pay = async (order: OrderBody): Promise<void> => {
    const intentId = order.payment!.payment_intent_id;
    await gateway.confirm(intentId, 'pm_card_visa');
    const eventId = `evt_${++eventCount}`;
    intake.events.set(eventId, { eventId, news: { intent: await gateway.read(intentId) } });
    expect((await postEvent(eventId)).status).to.equal(200);
  };
  /** Placed, paid and accepted by the kitchen (captured). */
  const capturedOrder = async (): Promise<OrderBody> => {
    const order = orderOf(await place());
    await pay(order);
    const accepted = await call(server.url, 'POST', `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted' } });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(orderOf(accepted).payment).to.include({ status: 'captured', amount_captured: order.amount });
    return orderOf(accepted);
  };
  const refund = (orderId: string, json: unknown, key?: string, token = staff): Promise<Answer> =>
    call(server.url, 'POST', `/api/staff/orders/${orderId}/refunds`, { token, json, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });

  before(async () => {
    gateway = new InMemoryPaymentGateway();
    providerEvents = new InMemoryProviderEvents();
    intake = new FakeIntake();
    server = await serve({ paymentGateway: gateway, providerEvents }, { paymentEvents: intake });
    server.storefront.orderEvents.start();
    alice = await loginAs(server.url, 'alice@example.com', 'alice-password');
    staff = await loginAs(server.url, 'kitchen@example.com', 'kitchen-password');
    productId = (await server.storefront.listMenu.execute()).products.find((p) => p.available)!.productId;
  });
  after(async () => {
    await server.close();
    server.storefront.orderEvents.stop();
  });

  describe('the client secret', () => {
    it('is the owner\'s while the order awaits its payment: the placement, its replay, the order and the list', async () => {
      const placed = await place('pay-1');
      expect(placed.status).to.equal(201);
      const order = orderOf(placed);
      expect(order.status).to.equal('awaiting_payment');
      expect(order.payment).to.include({ status: 'awaiting', amount: order.amount, amount_captured: 0, amount_refunded: 0 });
      const secret = order.payment!.client_secret;
      expect(secret).to.be.a('string').and.not.equal('');

      const replay = await place('pay-1');
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(orderOf(replay).payment).to.include({ client_secret: secret, payment_intent_id: order.payment!.payment_intent_id });

      expect((await read(order.order_id)).payment).to.have.property('client_secret', secret);
      const list = await call(server.url, 'GET', '/api/orders?limit=100', { token: alice });
      const listed = (list.body['orders'] as OrderBody[]).find((o) => o.order_id === order.order_id)!;
      expect(listed.payment).to.have.property('client_secret', secret);
    });

    it('never goes to staff, whether they read before or after the owner', async () => {
      const order = orderOf(await place());
      const staffView = await read(order.order_id, staff);
      expect(staffView.payment).to.include({ status: 'awaiting' }).and.not.to.have.property('client_secret');
      expect((await read(order.order_id)).payment).to.have.property('client_secret');
      expect((await read(order.order_id, staff)).payment).not.to.have.property('client_secret');
      const queue = await call(server.url, 'GET', '/api/staff/orders?status=awaiting_payment&limit=100', { token: staff });
      const queued = (queue.body['orders'] as OrderBody[]).find((o) => o.order_id === order.order_id)!;
      expect(queued.payment).not.to.have.property('client_secret');
    });

    it('is gone once the order is paid', async () => {
      const order = orderOf(await place());
      await pay(order);
      const paid = await read(order.order_id);
      expect(paid.status).to.equal('placed');
      expect(paid.payment).to.include({ status: 'authorized' }).and.not.to.have.property('client_secret');
    });
  });

  it('answers 503 payment_provider_unavailable with Retry-After while the provider is down', async () => {
    gateway.available = false;
    try {
      const refused = await place();
      expect(refused.status).to.equal(503);
      expect(refused.body).to.include({ error: 'payment_provider_unavailable', retry_after: 5 });
      expect(refused.headers.get('retry-after')).to.equal('5');
    } finally {
      gateway.available = true;
    }
  });

  describe('POST /api/payments/stripe/webhook', () => {
    it('refuses a forged or missing signature with 400 invalid_signature, and changes nothing', async () => {
      const order = orderOf(await place());
      const intentId = order.payment!.payment_intent_id;
      await gateway.confirm(intentId, 'pm_card_visa');
      intake.events.set('evt_forged', { eventId: 'evt_forged', news: { intent: await gateway.read(intentId) } });
      for (const signature of ['t=1,v1=forged', null]) {
        const refused = await postEvent('evt_forged', signature);
        expect(refused.status).to.equal(400);
        expect(refused.body).to.include({ error: 'invalid_signature' });
      }
      const still = await read(order.order_id);
      expect(still).to.include({ status: 'awaiting_payment', version: order.version });
      // Not taken either: once signed, the same event still takes effect.
      expect(await providerEvents.isCompleted('memory', 'evt_forged')).to.equal(false);
      expect((await postEvent('evt_forged')).status).to.equal(200);
      expect((await read(order.order_id)).status).to.equal('placed');
    });

    it('applies an event once: a repeat is 200 and changes nothing', async () => {
      const order = orderOf(await place());
      await pay(order);
      const paid = await read(order.order_id);
      const repeat = await postEvent(`evt_${eventCount}`);
      expect(repeat.status).to.equal(200);
      expect(repeat.body).to.deep.equal({ received: true });
      expect((await read(order.order_id)).version).to.equal(paid.version);
    });

    it('takes an event about nothing of ours with 200', async () => {
      const answer = await postEvent('evt_unknown');
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.equal({ received: true });
    });

    it('hands the verifier the body exactly as sent, whatever its type says, with no Bearer token needed', async () => {
      const body = Buffer.from('{ "id" :\n"evt_raw", "x": "é"  }\n');
      const answer = await call(server.url, 'POST', WEBHOOK, { body, headers: { 'content-type': 'text/plain', 'stripe-signature': GOOD } });
      expect(answer.status).to.equal(200);
      expect(intake.bodies.at(-1)!.equals(body)).to.equal(true);
    });

    it('refuses a body over 256 KiB with 413 before verifying it', async () => {
      const seen = intake.bodies.length;
      const body = JSON.stringify({ id: 'evt_big', pad: 'x'.repeat(256 * 1024) });
      const answer = await call(server.url, 'POST', WEBHOOK, { body, headers: { 'content-type': 'application/json', 'stripe-signature': GOOD } });
      expect(answer.status).to.equal(413);
      expect(answer.body).to.include({ error: 'payload_too_large' });
      expect(intake.bodies.length).to.equal(seen);
    });

    it('refuses a chunked body with 413 as soon as it passes 256 KiB', async () => {
      const seen = intake.bodies.length;
      const answer = await rawRequest(server.url, { 'transfer-encoding': 'chunked', 'stripe-signature': GOOD }, (req) => {
        for (let i = 0; i < 40; i++) req.write(Buffer.alloc(8 * 1024, 0x20));
        req.end();
      });
      expect(answer.status).to.equal(413);
      expect(intake.bodies.length).to.equal(seen);
    });

    it('refuses a declared length over 256 KiB with 413 before a byte of the body is sent', async () => {
      const answer = await rawRequest(server.url, { 'content-length': String(256 * 1024 + 1), 'stripe-signature': GOOD }, (req) => req.flushHeaders());
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.text)).to.include({ error: 'payload_too_large' });
    });

    it('takes a body of 256 KiB, more than the JSON routes take', async () => {
      const head = '{"id":"evt_full","pad":"';
      const body = head + 'x'.repeat(256 * 1024 - head.length - 2) + '"}';
      expect(Buffer.byteLength(body)).to.equal(256 * 1024);
      expect((await call(server.url, 'POST', WEBHOOK, { body, headers: { 'content-type': 'application/json', 'stripe-signature': GOOD } })).status).to.equal(200);
    });

    it('answers 503 with Retry-After: 5 while another instance is applying the same event', async () => {
      expect(await providerEvents.claim('memory', 'evt_busy', new Date())).to.equal(true);
      const answer = await postEvent('evt_busy');
      expect(answer.status).to.equal(503);
      expect(answer.body).to.include({ error: 'service_unavailable' });
      expect(answer.headers.get('retry-after')).to.equal('5');
    });

    it('refuses a Content-Encoding with 415: the signature covers the bytes as sent', async () => {
      const answer = await call(server.url, 'POST', WEBHOOK, { body: '{"id":"evt_gz"}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'stripe-signature': GOOD } });
      expect(answer.status).to.equal(415);
      expect(answer.body).to.include({ error: 'unsupported_media_type' });
    });

    it('cannot be served without the storefront\'s payments: the app refuses to start', async () => {
      let refused: unknown;
      try {
        await serve({}, { paymentEvents: intake });
      } catch (error) {
        refused = error;
      }
      expect(refused).to.be.instanceOf(Error).with.property('message').that.matches(/payment/);
    });

    it('is an unknown path (404) when payments are off', async () => {
      const plain = await serve();
      try {
        const answer = await call(plain.url, 'POST', WEBHOOK, { body: '{"id":"evt_1"}', headers: { 'content-type': 'application/json', 'stripe-signature': GOOD } });
        expect(answer.status).to.equal(404);
        expect(answer.body).to.include({ error: 'not_found' });
        expect(plain.app.routes()).not.to.deep.include({ method: 'POST', path: WEBHOOK });
      } finally {
        await plain.close();
      }
    });
  });

  describe('POST /api/staff/orders/{order_id}/refunds', () => {
    it('refunds part of a captured payment: 201 with the refund, shown on the order without a new status', async () => {
      const order = await capturedOrder();
      const made = await refund(order.order_id, { amount: 100, reason: 'cold fries' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect(made.headers.get('cache-control')).to.equal('no-store');
      expect(made.headers.get('idempotent-replayed')).to.equal(null);
      expect(made.body).to.have.keys('refund_id', 'amount', 'reason', 'status', 'created_at');
      expect(made.body).to.include({ amount: 100, reason: 'cold fries' });
      expect(['pending', 'succeeded']).to.include(made.body['status']);

      const after = await read(order.order_id, staff);
      expect(after.version).to.be.above(order.version);
      expect(after.status_history.map((h) => h.status)).to.deep.equal(order.status_history.map((h) => h.status));
      expect(after.payment).to.include({ status: 'partially_refunded', amount_refunded: 100 });
      expect(after.payment!.refunds.map((r) => r.refund_id)).to.deep.equal([made.body['refund_id']]);
    });

    it('answers a retry with the same Idempotency-Key with the same refund (201, Idempotent-Replayed) and refunds once', async () => {
      const order = await capturedOrder();
      const first = await refund(order.order_id, { amount: 150, reason: 'late' }, 'refund-1');
      const again = await refund(order.order_id, { amount: 150, reason: 'late' }, 'refund-1');
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.headers.get('cache-control')).to.equal('no-store');
      expect(again.body['refund_id']).to.equal(first.body['refund_id']);
      expect((await read(order.order_id, staff)).payment).to.include({ amount_refunded: 150 });
      const reused = await refund(order.order_id, { amount: 151, reason: 'late' }, 'refund-1');
      expect(reused.status).to.equal(422);
      expect(reused.body).to.include({ error: 'idempotency_key_reused' });
    });

    it('refuses more than captured and not yet refunded: 422 refund_exceeds_captured at `amount`', async () => {
      const order = await capturedOrder();
      const answer = await refund(order.order_id, { amount: order.amount + 1, reason: 'too much' });
      expect(answer.status).to.equal(422);
      expect(answer.body).to.include({ error: 'refund_exceeds_captured' });
      expect((answer.body['details'] as { path: string }[]).map((d) => d.path)).to.deep.equal(['amount']);
      expect((await read(order.order_id, staff)).payment).to.include({ amount_refunded: 0 });
    });

    it('refuses a refund of an order whose payment was not captured (422)', async () => {
      const order = orderOf(await place());
      await pay(order);
      const answer = await refund(order.order_id, { amount: 1, reason: 'not yet' });
      expect(answer.status).to.equal(422);
      expect(answer.body).to.include({ error: 'refund_exceeds_captured' });
    });

    it('refuses a body of the wrong shape with 400 validation_failed naming the field', async () => {
      const order = await capturedOrder();
      for (const [body, path] of [
        [{ amount: 0, reason: 'x' }, 'amount'],
        [{ amount: 1.5, reason: 'x' }, 'amount'],
        [{ amount: 1 }, 'reason'],
        [{ amount: 1, reason: '' }, 'reason'],
        [{ amount: 1, reason: 'two\nlines' }, 'reason'],
        [{ amount: 1, reason: 'x', extra: true }, 'extra'],
      ] as const) {
        const answer = await refund(order.order_id, body);
        expect(answer.status, JSON.stringify(body)).to.equal(400);
        expect(answer.body, JSON.stringify(body)).to.include({ error: 'validation_failed' });
        expect((answer.body['details'] as { path: string }[]).map((d) => d.path), JSON.stringify(body)).to.include(path);
      }
      const badKey = await refund(order.order_id, { amount: 1, reason: 'x' }, 'has space');
      expect(badKey.status).to.equal(400);
      expect((badKey.body['details'] as { path: string }[]).map((d) => d.path)).to.deep.equal(['Idempotency-Key']);
    });

    it('is for staff: no token 401, a customer\'s 403, an unknown order 404', async () => {
      const order = await capturedOrder();
      expect((await call(server.url, 'POST', `/api/staff/orders/${order.order_id}/refunds`, { json: { amount: 1, reason: 'x' } })).status).to.equal(401);
      expect((await refund(order.order_id, { amount: 1, reason: 'x' }, undefined, alice)).status).to.equal(403);
      expect((await refund('ord_0000000000000000000000', { amount: 1, reason: 'x' })).status).to.equal(404);
    });

    it('puts an order.refunded event on the kitchen\'s stream, with the refund and the payment and no client secret', async () => {
      const order = await capturedOrder();
      const { res, events } = await openStream(server.url, '/api/staff/events', staff);
      expect(res.status).to.equal(200);
      try {
        const made = await refund(order.order_id, { amount: 120, reason: 'spilled' });
        let frame = await events.nextEvent();
        while (frame !== null && frame.event !== 'order.refunded') frame = await events.nextEvent();
        const data = JSON.parse(frame!.data!) as { order_id: string; refund: { refund_id: string }; payment: PaymentBody };
        expect(data.order_id).to.equal(order.order_id);
        expect(data.refund).to.include({ refund_id: made.body['refund_id'], amount: 120, reason: 'spilled' });
        expect(data.payment).to.include({ amount_refunded: 120 }).and.not.to.have.property('client_secret');
      } finally {
        await events.cancel();
      }
    });
  });

  it('refuses a refund with 422 refund_exceeds_captured when payments are off, and shows `payment: null`', async () => {
    const plain = await serve();
    try {
      const token = await loginAs(plain.url, 'alice@example.com', 'alice-password');
      const kitchen = await loginAs(plain.url, 'kitchen@example.com', 'kitchen-password');
      const product = (await plain.storefront.listMenu.execute()).products.find((p) => p.available)!;
      const placed = await call(plain.url, 'POST', '/api/orders', { token, json: { items: [{ product_id: product.productId, quantity: 1 }] } });
      expect(orderOf(placed)).to.include({ status: 'placed', payment: null });
      const answer = await call(plain.url, 'POST', `/api/staff/orders/${orderOf(placed).order_id}/refunds`, { token: kitchen, json: { amount: 1, reason: 'x' } });
      expect(answer.status).to.equal(422);
      expect(answer.body).to.include({ error: 'refund_exceeds_captured' });
    } finally {
      await plain.close();
    }
  });
});
