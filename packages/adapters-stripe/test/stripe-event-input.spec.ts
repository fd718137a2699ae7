import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { paymentKeys } from '@storefront/domain/adapter-kit';
import { FakeClock, StripeStandIn } from '@storefront/testing';
import type Stripe from 'stripe';
import { createStripeClient, StripeEventsIntake, StripeEventVerifier, stripeEventInput, StripePaymentGateway } from '../src/index.js';

describe('stripeEventInput', () => {
  let standIn: StripeStandIn;
  let gateway: StripePaymentGateway;
  before(async () => {
    standIn = await StripeStandIn.start({ clock: new FakeClock(Date.now()) });
    gateway = new StripePaymentGateway(createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url, maxNetworkRetries: 0 }));
  });
  after(async () => standIn.close());

  /** An event about the intent as it stands, exactly as the stand-in (and Stripe) sends it. */
  const intentEvent = (type: string, intentId: string): Stripe.Event => JSON.parse(standIn.signedEvent(type, intentId).body) as Stripe.Event;

  /** An event whose object is given (a refund, a charge), in Stripe's envelope. */
  const eventOf = (type: string, object: unknown): Stripe.Event =>
    ({ id: `evt_${type.replace(/\W/g, '_')}`, object: 'event', api_version: null, created: 1, type, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object } }) as unknown as Stripe.Event;

  /** The refund as Stripe's API shows it. */
  async function refundJson(refundId: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${standIn.url}/v1/refunds/${refundId}`, { headers: { authorization: `Bearer ${standIn.apiKey}` } });
    return (await res.json()) as Record<string, unknown>;
  }

  async function authorized(orderId: string): Promise<string> {
    return (await gateway.authorize({ orderId, amount: 1_200, currency: 'EUR', idempotencyKey: paymentKeys.authorize(orderId), paymentMethod: 'pm_card_visa' })).intentId;
  }

  it('reads a payment_intent event as news of the intent, as a read of it would answer', async () => {
    const intentId = await authorized('ord_evt_auth');
    const event = intentEvent('payment_intent.amount_capturable_updated', intentId);
    expect(stripeEventInput(event)).to.deep.equal({ eventId: event.id, news: { intent: await gateway.read(intentId) } });
    expect(stripeEventInput(event).news).to.deep.include({ intent: { intentId, orderId: 'ord_evt_auth', amount: 1_200, currency: 'EUR', status: 'authorized', amountCapturable: 1_200 } });
  });

  it('reads every payment_intent type the lifecycle follows, each with its intent', async () => {
    const awaiting = (await gateway.authorize({ orderId: 'ord_evt_wait', amount: 800, currency: 'EUR', idempotencyKey: paymentKeys.authorize('ord_evt_wait') })).intentId;
    const types = ['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.processing', 'payment_intent.payment_failed', 'payment_intent.succeeded', 'payment_intent.canceled'];
    for (const type of types) {
      const news = stripeEventInput(intentEvent(type, awaiting)).news;
      expect(news, type).to.have.property('intent').that.deep.includes({ intentId: awaiting, status: 'awaiting' });
    }
  });

  it('reads a declined card (payment_intent.payment_failed) as declined, not final', async () => {
    const intentId = (await gateway.authorize({ orderId: 'ord_evt_decl', amount: 800, currency: 'EUR', idempotencyKey: paymentKeys.authorize('ord_evt_decl') })).intentId;
    standIn.confirm(intentId, 'pm_card_chargeDeclined');
    const news = stripeEventInput(intentEvent('payment_intent.payment_failed', intentId)).news;
    expect(news).to.deep.include({ intent: { intentId, orderId: 'ord_evt_decl', amount: 800, currency: 'EUR', status: 'declined', clientSecret: standIn.intent(intentId)['client_secret'], declineCode: 'generic_decline' } });
  });

  it('reads a canceled intent as canceled, and a captured one as captured with nothing refunded (the event carries no expanded charge)', async () => {
    const cancelled = await authorized('ord_evt_cancel');
    await gateway.cancel({ intentId: cancelled, reason: 'requested_by_customer', idempotencyKey: paymentKeys.cancel('ord_evt_cancel') });
    expect(stripeEventInput(intentEvent('payment_intent.canceled', cancelled)).news).to.deep.include({ intent: { intentId: cancelled, orderId: 'ord_evt_cancel', amount: 1_200, currency: 'EUR', status: 'canceled', expired: false } });
    const captured = await authorized('ord_evt_capt');
    await gateway.capture({ intentId: captured, idempotencyKey: paymentKeys.capture('ord_evt_capt') });
    await gateway.refund({ intentId: captured, amount: 200, reason: 'cold', reference: 'rf_evt_capt', idempotencyKey: paymentKeys.refund('rf_evt_capt') });
    const news = stripeEventInput(intentEvent('payment_intent.succeeded', captured)).news;
    expect(news).to.deep.include({ intent: { intentId: captured, orderId: 'ord_evt_capt', amount: 1_200, currency: 'EUR', status: 'captured', amountCaptured: 1_200, amountRefunded: 0 } });
  });

  it('reads refund.created, refund.updated, refund.failed and charge.refund.updated as news of the refund', async () => {
    const intentId = await authorized('ord_evt_refund');
    await gateway.capture({ intentId, idempotencyKey: paymentKeys.capture('ord_evt_refund') });
    const refund = await gateway.refund({ intentId, amount: 300, reason: 'Wrong topping', reference: 'rf_evt_refund', idempotencyKey: paymentKeys.refund('rf_evt_refund') });
    if (refund.status === 'refused') throw new Error('the refund was refused');
    const object = await refundJson(refund.refundId);
    for (const type of ['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']) {
      const event = eventOf(type, object);
      expect(stripeEventInput(event), type).to.deep.equal({ eventId: event.id, news: { refund: await gateway.readRefund(refund.refundId) } });
    }
    const failed = stripeEventInput(eventOf('refund.failed', { ...object, status: 'failed' })).news;
    expect(failed).to.have.nested.property('refund.status', 'failed');
    expect(failed).to.deep.include({ refund: { status: 'failed', refundId: refund.refundId, intentId, amount: 300, category: null, reason: 'Wrong topping', reference: 'rf_evt_refund' } });
  });

  it('reads charge.refunded by its newest refund, and as no news when the charge lists none', async () => {
    const intentId = await authorized('ord_evt_charge');
    await gateway.capture({ intentId, idempotencyKey: paymentKeys.capture('ord_evt_charge') });
    const first = await gateway.refund({ intentId, amount: 100, reason: 'one', reference: 'rf_evt_c1', idempotencyKey: paymentKeys.refund('rf_evt_c1') });
    const second = await gateway.refund({ intentId, amount: 200, reason: 'two', reference: 'rf_evt_c2', idempotencyKey: paymentKeys.refund('rf_evt_c2') });
    if (first.status === 'refused' || second.status === 'refused') throw new Error('a refund was refused');
    const charge = { id: 'ch_evt', object: 'charge', amount: 1_200, amount_refunded: 300, payment_intent: intentId, refunded: false };
    const refunds = { object: 'list', data: [await refundJson(second.refundId), await refundJson(first.refundId)], has_more: false, url: '/v1/charges/ch_evt/refunds' };
    const listed = eventOf('charge.refunded', { ...charge, refunds });
    expect(stripeEventInput(listed)).to.deep.equal({ eventId: listed.id, news: { refund: second } });
    const bare = eventOf('charge.refunded', charge);
    expect(stripeEventInput(bare)).to.deep.equal({ eventId: bare.id });
    expect(stripeEventInput(eventOf('charge.refunded', { ...charge, refunds: { ...refunds, data: [] } }))).to.deep.equal({ eventId: bare.id });
  });

  it('takes any other event type with its id and no news', () => {
    for (const type of ['charge.succeeded', 'customer.created', 'payment_intent.partially_funded', 'checkout.session.completed']) {
      const event = eventOf(type, { id: 'obj_1', object: 'unknown' });
      expect(stripeEventInput(event), type).to.deep.equal({ eventId: event.id });
    }
  });
});

describe('StripeEventsIntake', () => {
  let standIn: StripeStandIn;
  let intake: StripeEventsIntake;
  let intentId: string;
  before(async () => {
    standIn = await StripeStandIn.start({ clock: new FakeClock(Date.now()) });
    const stripe = createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url, maxNetworkRetries: 0 });
    intake = new StripeEventsIntake(new StripeEventVerifier(stripe, { webhookSecret: standIn.webhookSecret }));
    const gateway = new StripePaymentGateway(stripe);
    intentId = (await gateway.authorize({ orderId: 'ord_intake', amount: 900, currency: 'USD', idempotencyKey: 'k-intake', paymentMethod: 'pm_card_visa' })).intentId;
  });
  after(async () => standIn.close());

  it('answers the event read as the domain takes it once its signature verifies', () => {
    const signed = standIn.signedEvent('payment_intent.amount_capturable_updated', intentId, { id: 'evt_intake_1' });
    const input = intake.verify(Buffer.from(signed.body), signed.signature);
    expect(input?.eventId).to.equal('evt_intake_1');
    expect(input?.news).to.have.nested.property('intent.status', 'authorized');
  });

  it('answers null for a forged, tampered or missing signature, without reading the body', () => {
    const forged = standIn.signedEvent('payment_intent.succeeded', intentId, { secret: 'whsec_forged' });
    expect(intake.verify(Buffer.from(forged.body), forged.signature)).to.equal(null);
    const signed = standIn.signedEvent('payment_intent.succeeded', intentId);
    expect(intake.verify(Buffer.from(signed.body.replace('"livemode":false', '"livemode":true')), signed.signature)).to.equal(null);
    expect(intake.verify(Buffer.from(signed.body), undefined)).to.equal(null);
    expect(intake.verify(Buffer.from('not json'), signed.signature)).to.equal(null);
  });
});
