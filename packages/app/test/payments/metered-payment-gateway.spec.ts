/**
 * The payment provider's metrics (MeteredPaymentGateway, PaymentOutcomes) read back through a
 * Prometheus text-format parser: calls by operation and outcome with their latency, payments and
 * refunds by outcome, each outcome once however often the provider repeats it.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { InMemoryPaymentGateway } from '@storefront/adapters-memory';
import { InvalidPaymentRequest, paymentKeys, type PaymentIntentOutcome } from '@storefront/domain/adapter-kit';
import { getMetricsFromIterator } from 'prom2javascript';
import { MeteredPaymentGateway } from '../../src/metrics/metered-payment-gateway.js';
import { PaymentOutcomes } from '../../src/metrics/payment-outcomes.js';
import { PrometheusMetrics } from '../../src/metrics/prometheus-metrics.js';
import { Scrape } from '../metrics-support.js';

const CALLS = 'storefront_payment_provider_calls_total';
const DURATIONS = 'storefront_payment_provider_call_duration_seconds';
const PAYMENTS = 'storefront_payments_total';
const REFUNDS = 'storefront_refunds_total';

function setUp() {
  const metrics = new PrometheusMetrics();
  const network = new InMemoryPaymentGateway();
  const outcomes = new PaymentOutcomes(metrics);
  let tick = 0;
  // Each call takes 0.25 s on this clock.
  const gateway = new MeteredPaymentGateway(network, metrics, outcomes, () => (tick += 250));
  // The event-loop gauges read NaN before their first sample, which the parser does not take.
  const read = async (): Promise<Scrape> =>
    new Scrape(await getMetricsFromIterator((await metrics.scrape()).text.split('\n').filter((line) => !/ Nan$/.test(line))[Symbol.iterator]()));
  const open = (orderId: string, paymentMethod?: string): Promise<PaymentIntentOutcome> =>
    gateway.authorize({ orderId, amount: 1_000, currency: 'EUR', idempotencyKey: paymentKeys.authorize(orderId), ...(paymentMethod === undefined ? {} : { paymentMethod }) });
  return { metrics, network, outcomes, gateway, read, open };
}

describe('MeteredPaymentGateway', () => {
  it('counts each call by operation and outcome, with its latency, and passes answers and errors through', async () => {
    const { gateway, network, read, open } = setUp();
    const awaiting = await open('ord_1');
    expect(awaiting.status).to.equal('awaiting');
    expect((await open('ord_2', 'pm_card_chargeDeclined')).status).to.equal('declined');
    const authorized = await open('ord_3', 'pm_card_visa');
    expect((await gateway.capture({ intentId: awaiting.intentId, idempotencyKey: paymentKeys.capture('ord_1') })).status).to.equal('refused');
    await gateway.capture({ intentId: authorized.intentId, idempotencyKey: paymentKeys.capture('ord_3') });
    const reused = await gateway.authorize({ orderId: 'ord_1', amount: 5, currency: 'EUR', idempotencyKey: paymentKeys.authorize('ord_1') }).catch((e: unknown) => e);
    expect(reused).to.be.instanceOf(InvalidPaymentRequest);
    network.available = false;
    const down = await gateway.read(authorized.intentId).catch((e: unknown) => e);
    expect(down).to.have.property('code', 'payment_provider_unavailable');

    const s = await read();
    const calls = (operation: string, outcome: string) => s.value(CALLS, 'counter', { operation, outcome });
    expect(calls('authorize', 'ok')).to.equal(2);
    expect(calls('authorize', 'declined')).to.equal(1);
    expect(calls('authorize', 'invalid')).to.equal(1);
    expect(calls('capture', 'refused')).to.equal(1);
    expect(calls('capture', 'ok')).to.equal(1);
    expect(calls('read', 'unavailable')).to.equal(1);
    const latency = s.histogram(DURATIONS, { operation: 'authorize', outcome: 'ok' });
    expect(latency?.count).to.equal(2);
    expect(latency?.sum).to.equal(0.5);
    expect(s.labelValues(CALLS, 'counter', 'operation').every((op) => ['authorize', 'read', 'capture', 'cancel', 'refund', 'read_refund'].includes(op))).to.equal(true);
  });

  it('counts payments by outcome once each: authorized, captured, voided, failed (declined) and expired', async () => {
    const { gateway, network, read, open } = setUp();
    const paid = await open('ord_paid', 'pm_card_visa');
    await gateway.read(paid.intentId);
    await gateway.read(paid.intentId);
    await gateway.capture({ intentId: paid.intentId, idempotencyKey: paymentKeys.capture('ord_paid') });
    await gateway.capture({ intentId: paid.intentId, idempotencyKey: paymentKeys.capture('ord_paid') });
    await gateway.read(paid.intentId);
    const rejected = await open('ord_rejected', 'pm_card_visa');
    await gateway.cancel({ intentId: rejected.intentId, reason: 'requested_by_customer', idempotencyKey: paymentKeys.cancel('ord_rejected') });
    // Our cancellation heard again on a read is not another outcome.
    await gateway.read(rejected.intentId);
    const declined = await open('ord_declined', 'pm_card_chargeDeclined');
    await gateway.read(declined.intentId);
    const unpaid = await open('ord_unpaid');
    await gateway.cancel({ intentId: unpaid.intentId, reason: 'abandoned', idempotencyKey: paymentKeys.cancel('ord_unpaid') });

    const s = await read();
    const payments = (outcome: string) => s.value(PAYMENTS, 'counter', { outcome });
    expect([payments('authorized'), payments('captured'), payments('voided'), payments('failed'), payments('expired')]).to.deep.equal([2, 1, 1, 1, 1]);
  });

  it('counts refunds by the status they reach, a refused one as failed', async () => {
    const { gateway, read, open, outcomes } = setUp();
    const paid = await open('ord_r', 'pm_card_visa');
    await gateway.capture({ intentId: paid.intentId, idempotencyKey: paymentKeys.capture('ord_r') });
    const refund = await gateway.refund({ intentId: paid.intentId, amount: 400, reason: 'cold', reference: 'rf_1', idempotencyKey: paymentKeys.refund('rf_1') });
    if (refund.status === 'refused') throw new Error('refused');
    await gateway.readRefund(refund.refundId);
    expect((await gateway.refund({ intentId: paid.intentId, amount: 5_000, reason: 'too much', reference: 'rf_2', idempotencyKey: paymentKeys.refund('rf_2') })).status).to.equal('refused');
    // The provider's event of the refund settled.
    outcomes.news({ refund: { ...refund, status: 'succeeded' } });
    outcomes.news({ refund: { ...refund, status: 'succeeded' } });

    const s = await read();
    const refunds = (outcome: string) => s.value(REFUNDS, 'counter', { outcome });
    expect(refunds(refund.status)).to.equal(1);
    expect(refunds('failed')).to.equal(1);
    expect(s.value(CALLS, 'counter', { operation: 'refund', outcome: 'refused' })).to.equal(1);
    expect(s.value(CALLS, 'counter', { operation: 'read_refund', outcome: 'ok' })).to.equal(1);
    if (refund.status === 'pending') expect(refunds('succeeded')).to.equal(1);
  });

  it('hears an authorization from an event once, however often it repeats', async () => {
    const { outcomes, read, open, gateway } = setUp();
    const paid = await open('ord_e', 'pm_card_visa');
    await gateway.read(paid.intentId);
    outcomes.news({ intent: paid });
    const s = await read();
    expect(s.value(PAYMENTS, 'counter', { outcome: 'authorized' })).to.equal(1);
  });
});
