import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { inspect } from 'node:util';
import { InvalidPaymentRequest, paymentKeys } from '@storefront/domain/adapter-kit';
import { expectDomainError, FakeClock, rejectionOf, StripeStandIn } from '@storefront/testing';
import { createStripeClient, StripePaymentGateway } from '../src/index.js';

describe('StripePaymentGateway', () => {
  let standIn: StripeStandIn;
  before(async () => {
    standIn = await StripeStandIn.start({ clock: new FakeClock(Date.now()) });
  });
  after(async () => standIn.close());

  const gateway = (options: { timeoutMs?: number; maxNetworkRetries?: number; secretKey?: string } = {}): StripePaymentGateway =>
    new StripePaymentGateway(
      createStripeClient({ secretKey: options.secretKey ?? standIn.apiKey, apiBase: standIn.url, timeoutMs: options.timeoutMs ?? 5_000, maxNetworkRetries: options.maxNetworkRetries ?? 0 }),
    );

  const order = (orderId: string, amount = 1_999) => ({ orderId, amount, currency: 'EUR', idempotencyKey: paymentKeys.authorize(orderId) });

  it('creates a manual-capture PaymentIntent with metadata.order_id, minor units, lower-case currency and the key', async () => {
    const from = standIn.requests.length;
    const created = await gateway().authorize(order('ord_wire'));
    const sent = standIn.requests.slice(from);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.deep.include({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'storefront:ord_wire:authorize' });
    expect(sent[0]!.params).to.deep.equal({ amount: '1999', currency: 'eur', capture_method: 'manual', 'metadata[order_id]': 'ord_wire' });
    expect(created).to.include({ currency: 'EUR', orderId: 'ord_wire', status: 'awaiting' });
  });

  it("sends Stripe's refund reason only when it is one of Stripe's, and the staff's words and our refund's id as metadata", async () => {
    const g = gateway();
    const intent = await g.authorize({ ...order('ord_refund'), paymentMethod: 'pm_card_visa' });
    await g.capture({ intentId: intent.intentId, idempotencyKey: paymentKeys.capture('ord_refund') });
    const from = standIn.requests.length;
    await g.refund({ intentId: intent.intentId, amount: 500, reason: 'Wrong topping', reference: 'rfd_w', idempotencyKey: paymentKeys.refund('rfd_w') });
    await g.refund({ intentId: intent.intentId, amount: 500, reason: 'Ordered twice', category: 'duplicate', reference: 'rfd_d', idempotencyKey: paymentKeys.refund('rfd_d') });
    const [plain, categorized] = standIn.requests.slice(from).map((request) => request.params);
    expect(plain).to.deep.equal({ payment_intent: intent.intentId, amount: '500', 'metadata[reason]': 'Wrong topping', 'metadata[refund_id]': 'rfd_w' });
    expect(categorized).to.include({ reason: 'duplicate', 'metadata[reason]': 'Ordered twice' });
  });

  it('retries a 500 with the same idempotency key when retries are allowed, then reports the provider unavailable', async () => {
    standIn.mode = 'error500';
    const from = standIn.requests.length;
    try {
      await expectDomainError(gateway({ maxNetworkRetries: 1 }).authorize(order('ord_retry')), 'payment_provider_unavailable');
    } finally {
      standIn.mode = 'up';
    }
    const keys = standIn.requests.slice(from).map((request) => request.idempotencyKey);
    expect(keys).to.deep.equal(['storefront:ord_retry:authorize', 'storefront:ord_retry:authorize']);
  });

  for (const mode of ['slow', 'throttle', 'error500', 'down'] as const) {
    it(`maps the provider ${mode} to payment_provider_unavailable with a Retry-After`, async () => {
      standIn.mode = mode;
      standIn.slowMs = 1_500;
      try {
        const error = await expectDomainError(gateway({ timeoutMs: 300 }).read('pi_any'), 'payment_provider_unavailable');
        expect((error as { retryAfterSeconds: number }).retryAfterSeconds).to.be.greaterThan(0);
      } finally {
        standIn.mode = 'up';
      }
    });
  }

  it('reports an unknown intent and a bad API key as programming errors, not as outages', async () => {
    const missing = await rejectionOf(gateway().read('pi_unknown'));
    expect(missing).to.be.instanceOf(InvalidPaymentRequest);
    const badKey = await rejectionOf(gateway({ secretKey: 'sk_test_not_the_key_123456' }).read('pi_unknown'));
    expect(badKey).to.be.instanceOf(InvalidPaymentRequest);
  });

  it('never puts the secret key, a client secret or a card in an error, its cause or a log line', async () => {
    const logged: string[] = [];
    const originals = { log: console.log, error: console.error, warn: console.warn, info: console.info };
    for (const name of ['log', 'error', 'warn', 'info'] as const) console[name] = (...args: unknown[]) => void logged.push(inspect(args));
    const errors: unknown[] = [];
    try {
      const g = gateway();
      const intent = await g.authorize(order('ord_secret'));
      const secret = intent.status === 'awaiting' ? intent.clientSecret : expect.fail('awaiting');
      standIn.confirm(intent.intentId, 'pm_card_chargeDeclined');
      errors.push(await rejectionOf(g.authorize({ ...order('ord_secret'), amount: 1 })));
      errors.push(await rejectionOf(gateway({ secretKey: `${standIn.apiKey}x` }).authorize(order('ord_secret_2'))));
      errors.push(await rejectionOf(g.capture({ intentId: 'pi_nope', idempotencyKey: 'k1' })));
      standIn.mode = 'error500';
      errors.push(await rejectionOf(g.authorize({ ...order('ord_secret_3'), paymentMethod: 'pm_card_chargeDeclined' })));
      standIn.mode = 'up';
      const text = errors.map((error) => inspect(error, { depth: 10, showHidden: true })).join('\n') + logged.join('\n');
      for (const secretText of [standIn.apiKey, secret, 'pm_card_chargeDeclined', secret.split('_secret_')[1]!]) {
        expect(text).not.to.contain(secretText);
      }
    } finally {
      standIn.mode = 'up';
      Object.assign(console, originals);
    }
    expect(errors).to.have.length(4);
  });
});
