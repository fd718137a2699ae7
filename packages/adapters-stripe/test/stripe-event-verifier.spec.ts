import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { FakeClock, signStripePayload, StripeStandIn } from '@storefront/testing';
import { createStripeClient, StripeEventVerifier, StripePaymentGateway } from '../src/index.js';

describe('StripeEventVerifier', () => {
  let standIn: StripeStandIn;
  let intentId: string;
  let now = Date.now();
  const verifier = (): StripeEventVerifier =>
    new StripeEventVerifier(createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url }), { webhookSecret: standIn.webhookSecret, now: () => now });

  before(async () => {
    standIn = await StripeStandIn.start({ clock: new FakeClock(Date.now()) });
    const gateway = new StripePaymentGateway(createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url, maxNetworkRetries: 0 }));
    intentId = (await gateway.authorize({ orderId: 'ord_evt', amount: 900, currency: 'USD', idempotencyKey: 'k-evt', paymentMethod: 'pm_card_visa' })).intentId;
  });
  after(async () => standIn.close());

  it('accepts an event the stand-in signed as Stripe signs, and gives it parsed', () => {
    now = Date.now();
    const signed = standIn.signedEvent('payment_intent.amount_capturable_updated', intentId);
    const event = verifier().verify(signed.body, signed.signature);
    expect(event?.type).to.equal('payment_intent.amount_capturable_updated');
    expect((event?.data.object as { id: string }).id).to.equal(intentId);
    expect(verifier().verify(Buffer.from(signed.body), signed.signature)?.id).to.equal(event?.id);
  });

  it('accepts any of several v1 signatures (a secret being rolled)', () => {
    now = Date.now();
    const signed = standIn.signedEvent('payment_intent.succeeded', intentId);
    const other = signStripePayload(signed.body, 'whsec_old', Math.floor(now / 1000)).split(',')[1]!;
    expect(verifier().verify(signed.body, `${signed.signature},${other}`)).not.to.equal(null);
  });

  it('refuses a forged, tampered, stale, missing or malformed signature', () => {
    now = Date.now();
    const forged = standIn.signedEvent('payment_intent.succeeded', intentId, { secret: 'whsec_forged' });
    expect(verifier().verify(forged.body, forged.signature)).to.equal(null);
    const signed = standIn.signedEvent('payment_intent.succeeded', intentId);
    expect(verifier().verify(signed.body.replace('"livemode":false', '"livemode":true'), signed.signature)).to.equal(null);
    const stale = standIn.signedEvent('payment_intent.succeeded', intentId, { timestamp: Math.floor(now / 1000) - 301 });
    expect(verifier().verify(stale.body, stale.signature)).to.equal(null);
    const fresh = standIn.signedEvent('payment_intent.succeeded', intentId, { timestamp: Math.floor(now / 1000) - 299 });
    expect(verifier().verify(fresh.body, fresh.signature)).not.to.equal(null);
    expect(verifier().verify(signed.body, undefined)).to.equal(null);
    expect(verifier().verify(signed.body, 'garbage')).to.equal(null);
  });

  it('posts signed events to a URL with the Stripe-Signature header', async () => {
    const http = await import('node:http');
    const seen: { signature: string | undefined; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ signature: req.headers['stripe-signature'] as string | undefined, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      now = Date.now();
      const res = await standIn.postEvent(`http://127.0.0.1:${port}/hook`, standIn.signedEvent('payment_intent.canceled', intentId));
      expect(res.status).to.equal(200);
      expect(verifier().verify(seen[0]!.body, seen[0]!.signature)?.type).to.equal('payment_intent.canceled');
    } finally {
      server.close();
    }
  });
});
