/**
 * A stand-in for Stripe's HTTP API on loopback (stripe-mock cannot be installed here): stateful,
 * answering the requests the `stripe` SDK sends for PaymentIntents (create, retrieve, capture,
 * cancel) and Refunds (create, retrieve) with Stripe's JSON objects, error shapes and statuses
 * (402 card_error, 400 invalid_request_error / idempotency_error, 404, 401, 429, 500), honouring
 * `Idempotency-Key` as Stripe does. It runs on the same card network as the memory gateway
 * (@storefront/adapter-support). The test plays the browser (`confirm`, `authenticate`), breaks the
 * provider (`mode`), and sends events signed as Stripe signs them (`t=<unix>,v1=<hex hmac>`).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '@storefront/domain';
import { CardNetwork, CardNetworkError, IdempotencyConflict, IdempotencyLedger, type CardIntent, type CardRefund } from '@storefront/adapter-support';
import { randomHex } from './builders.js';

/** How the stand-in answers: `down` drops every connection, `slow` answers after `slowMs`, `error500` and `throttle` answer 500 / 429. */
export type StandInMode = 'up' | 'down' | 'slow' | 'error500' | 'throttle';

export interface StripeStandInOptions {
  readonly clock: Clock;
  /** The API key requests must carry (`Authorization: Bearer ...`). */
  readonly apiKey?: string;
  /** The endpoint secret events are signed with (`whsec_...`). */
  readonly webhookSecret?: string;
}

export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly params: Readonly<Record<string, string>>;
}

export interface SignedEvent {
  readonly body: string;
  readonly signature: string;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** An answer Stripe does not keep under the idempotency key (refused before the endpoint acted). */
class Unkept {
  constructor(readonly answer: Answer) {}
}

const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);
const CANCEL_REASONS = new Set(['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer']);

export class StripeStandIn {
  mode: StandInMode = 'up';
  slowMs = 2_000;
  /** Every request that reached the API (not those dropped while `down`), in order. */
  readonly requests: StandInRequest[] = [];
  readonly apiKey: string;
  readonly webhookSecret: string;
  private readonly network: CardNetwork;
  private readonly ledger = new IdempotencyLedger<Answer>();
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;

  private constructor(private readonly options: StripeStandInOptions) {
    this.apiKey = options.apiKey ?? `sk_test_${randomHex(12)}`;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomHex(16)}`;
    this.network = new CardNetwork({ clock: options.clock });
    this.server = http.createServer((req, res) => void this.serve(req, res));
    this.server.on('connection', (socket) => {
      if (this.mode === 'down') return void socket.destroy();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: StripeStandInOptions): Promise<StripeStandIn> {
    const standIn = new StripeStandIn(options);
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  /** What STRIPE_API_BASE is set to. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Stripe.js confirming the intent with a test card; a decline is recorded on the intent, as Stripe does. */
  confirm(intentId: string, paymentMethod: string): void {
    try {
      this.network.confirm(intentId, paymentMethod);
    } catch (error) {
      if (!(error instanceof CardNetworkError && error.kind === 'declined')) throw error;
    }
  }

  authenticate(intentId: string, passed: boolean): void {
    this.network.authenticate(intentId, passed);
  }

  /** The intent as Stripe's API shows it. */
  intent(intentId: string): Record<string, unknown> {
    return this.intentJson(this.network.intent(intentId), false);
  }

  /** The intent's refunds as Stripe's API shows them, oldest first. */
  refunds(intentId: string): Record<string, unknown>[] {
    return this.network.refundsOf(intentId).map((refund) => this.refundJson(refund));
  }

  /** The card's bank sends a succeeded refund back: it turns `failed` (Stripe then sends `refund.failed`). */
  failRefund(refundId: string): void {
    this.network.failRefund(refundId);
  }

  /** An event about the refund as it stands (`refund.updated`, `refund.failed`), signed as signedEvent signs. */
  signedRefundEvent(type: string, refundId: string, options: { secret?: string; timestamp?: number; id?: string } = {}): SignedEvent {
    return this.signed(type, this.refundJson(this.network.refund(refundId)), options);
  }

  /** An event about the intent as it stands (`payment_intent.succeeded`, ...), signed with `secret` at `timestamp` (unix seconds). */
  signedEvent(type: string, intentId: string, options: { secret?: string; timestamp?: number; id?: string } = {}): SignedEvent {
    return this.signed(type, this.intent(intentId), options);
  }

  private signed(type: string, object: Record<string, unknown>, options: { secret?: string; timestamp?: number; id?: string }): SignedEvent {
    const event = {
      id: options.id ?? `evt_${randomHex(12)}`,
      object: 'event',
      api_version: null,
      created: Math.floor(this.options.clock.now().getTime() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    };
    const body = JSON.stringify(event);
    return { body, signature: signStripePayload(body, options.secret ?? this.webhookSecret, options.timestamp) };
  }

  /** Posts a signed event to `url` as Stripe's webhook sender does. */
  async postEvent(url: string, event: SignedEvent): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      body: event.body,
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // A kept-alive connection from before the outage is dropped too.
    if (this.mode === 'down') return void req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = req.method === 'GET' ? url.searchParams : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const params = Object.fromEntries(form);
    const key = header(req, 'idempotency-key');
    this.requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, params });
    const answer = await this.answer(req, url.pathname, params, key);
    if (answer === undefined) return;
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${randomHex(7)}` });
    res.end(JSON.stringify(answer.body));
  }

  private async answer(req: http.IncomingMessage, path: string, params: Record<string, string>, key: string | undefined): Promise<Answer | undefined> {
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    if (this.mode === 'error500') return error(500, 'api_error', 'An unknown error occurred');
    if (this.mode === 'throttle') return error(429, 'invalid_request_error', 'Too many requests hit the API too quickly.', { code: 'rate_limit' });
    if (header(req, 'authorization') !== `Bearer ${this.apiKey}`) {
      return error(401, 'invalid_request_error', 'Invalid API Key provided: sk_test_****');
    }
    if (req.method === 'GET') return this.settle(() => this.read(path, params));
    if (key === undefined) return this.settle(() => this.write(path, params));
    const request = JSON.stringify([path, Object.entries(params).sort(([a], [b]) => a.localeCompare(b))]);
    try {
      return this.ledger.run(key, request, () => {
        const answer = this.settle(() => this.write(path, params));
        // Stripe keeps what an endpoint did (a decline included), not a request it refused first.
        if (answer.status === 400 || answer.status === 404) throw new Unkept(answer);
        return answer;
      });
    } catch (refused) {
      if (refused instanceof Unkept) return refused.answer;
      if (refused instanceof IdempotencyConflict) {
        return error(400, 'idempotency_error', `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`);
      }
      throw refused;
    }
  }

  private read(path: string, params: Record<string, string>): Answer {
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (intent !== null) {
      const expand = Object.entries(params).some(([name, value]) => name.startsWith('expand[') && value === 'latest_charge');
      return { status: 200, body: this.intentJson(this.network.intent(intent[1]!), expand) };
    }
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (refund !== null) return { status: 200, body: this.refundJson(this.network.refund(refund[1]!)) };
    return error(404, 'invalid_request_error', `Unrecognized request URL (GET: ${path}).`);
  }

  private write(path: string, params: Record<string, string>): Answer {
    if (path === '/v1/payment_intents') return this.createIntent(params);
    if (path === '/v1/refunds') return this.createRefund(params);
    const action = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(path);
    if (action === null) return error(404, 'invalid_request_error', `Unrecognized request URL (POST: ${path}).`);
    const id = action[1]!;
    if (action[2] === 'capture') {
      const amount = params['amount_to_capture'];
      if (amount !== undefined && !isCount(amount)) return invalidParam('amount_to_capture');
      return this.ok(this.network.capture(id, amount === undefined ? undefined : Number(amount)));
    }
    const reason = params['cancellation_reason'];
    if (reason !== undefined && !CANCEL_REASONS.has(reason)) return invalidParam('cancellation_reason');
    return this.ok(this.network.cancel(id, reason ?? null));
  }

  private createIntent(params: Record<string, string>): Answer {
    const { amount, currency } = params;
    if (amount === undefined || !isCount(amount)) return invalidParam('amount');
    if (currency === undefined || !/^[a-z]{3}$/.test(currency)) return invalidParam('currency');
    if (params['capture_method'] !== 'manual') return invalidParam('capture_method');
    const intent = this.network.create({ amount: Number(amount), currency, metadata: metadataOf(params) });
    const paymentMethod = params['payment_method'];
    if (paymentMethod === undefined || params['confirm'] !== 'true') return this.ok(intent);
    return this.ok(this.network.confirm(intent.id, paymentMethod));
  }

  private createRefund(params: Record<string, string>): Answer {
    const { payment_intent: intentId, amount, reason } = params;
    if (intentId === undefined) return invalidParam('payment_intent');
    if (amount !== undefined && !isCount(amount)) return invalidParam('amount');
    if (reason !== undefined && !REFUND_REASONS.has(reason)) return invalidParam('reason');
    const refund = this.network.createRefund({
      paymentIntent: intentId,
      ...(amount === undefined ? {} : { amount: Number(amount) }),
      reason: reason ?? null,
      metadata: metadataOf(params),
    });
    return { status: 200, body: this.refundJson(refund) };
  }

  /** The network's refusals as Stripe's error answers. */
  private settle(work: () => Answer): Answer {
    try {
      return work();
    } catch (failure) {
      if (!(failure instanceof CardNetworkError)) throw failure;
      if (failure.kind === 'missing') return error(404, 'invalid_request_error', failure.message, { code: 'resource_missing' });
      const extra = { code: failure.code, ...(failure.intent === undefined ? {} : { payment_intent: this.intentJson(failure.intent, false) }) };
      if (failure.kind === 'declined') return error(402, 'card_error', failure.message, { ...extra, decline_code: failure.declineCode });
      return error(400, 'invalid_request_error', failure.message, extra);
    }
  }

  private ok(intent: CardIntent): Answer {
    return { status: 200, body: this.intentJson(intent, false) };
  }

  private intentJson(intent: CardIntent, expandCharge: boolean): Record<string, unknown> {
    const { authorized_until: _until, amount_refunded: refunded, ...fields } = intent;
    const charge =
      intent.latest_charge === null || !expandCharge
        ? intent.latest_charge
        : {
            id: intent.latest_charge,
            object: 'charge',
            amount: intent.amount,
            amount_captured: intent.amount_received,
            amount_refunded: refunded,
            captured: intent.status === 'succeeded',
            refunded: refunded > 0 && refunded >= intent.amount_received,
            currency: intent.currency,
            payment_intent: intent.id,
          };
    return { ...fields, object: 'payment_intent', livemode: false, latest_charge: charge, confirmation_method: 'automatic' };
  }

  private refundJson(refund: CardRefund): Record<string, unknown> {
    const intent = this.network.intent(refund.payment_intent);
    return { ...refund, object: 'refund', currency: intent.currency };
  }
}

/** Stripe's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" with the endpoint secret>`. */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function error(status: number, type: string, message: string, extra: Record<string, unknown> = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

function invalidParam(param: string): Answer {
  return error(400, 'invalid_request_error', `Invalid value for ${param}.`, { code: 'parameter_invalid', param });
}

const isCount = (value: string): boolean => /^[1-9][0-9]{0,11}$/.test(value);

/** `metadata[order_id]=...` form fields as `{ order_id: ... }`. */
function metadataOf(params: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const key = /^metadata\[([^\]]+)\]$/.exec(name)?.[1];
    if (key !== undefined) metadata[key] = value;
  }
  return metadata;
}
