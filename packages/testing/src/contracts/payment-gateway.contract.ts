/**
 * What every PaymentGateway must do, against a card network that behaves like Stripe's (the memory
 * gateway's own, or the Stripe adapter talking to the stand-in of Stripe's HTTP API): one intent
 * per order whatever is retried, a declined card followed by a good one on the same intent,
 * capture, cancel, refunds never above what was captured, every write once per key, the
 * provider's outage as `payment_provider_unavailable`.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { PaymentGateway, PaymentIntentOutcome, RefundOutcome } from '@storefront/domain/adapter-kit';
import { InvalidPaymentRequest, paymentKeys } from '@storefront/domain/adapter-kit';
import { expectDomainError, rejectionOf } from '../assertions.js';
import { randomHex } from '../builders.js';

export interface PaymentGatewayUnderTest {
  readonly gateway: PaymentGateway;
  /** The customer's browser: confirms the intent with a test card (`pm_card_visa`, `pm_card_chargeDeclined`, ...). */
  confirm(intentId: string, paymentMethod: string): Promise<void>;
  /** The provider unreachable (true) or back (false). */
  setDown(down: boolean): void;
  /** Moves the provider's clock. */
  advance(ms: number): void;
}

const DAY_MS = 24 * 3600_000;

function anOrder(amount = 2_500): { orderId: string; amount: number; currency: string; idempotencyKey: string } {
  const orderId = `ord_${randomHex(10)}`;
  return { orderId, amount, currency: 'USD', idempotencyKey: paymentKeys.authorize(orderId) };
}

function expectStatus<S extends PaymentIntentOutcome['status']>(outcome: PaymentIntentOutcome, status: S): Extract<PaymentIntentOutcome, { status: S }> {
  expect(outcome.status, JSON.stringify(outcome)).to.equal(status);
  return outcome as Extract<PaymentIntentOutcome, { status: S }>;
}

function expectRefund(outcome: RefundOutcome): Extract<RefundOutcome, { refundId: string }> {
  expect(outcome.status, JSON.stringify(outcome)).to.equal('succeeded');
  return outcome as Extract<RefundOutcome, { refundId: string }>;
}

export function describePaymentGatewayContract(name: string, factory: () => Promise<PaymentGatewayUnderTest>): void {
  describe(`${name} (PaymentGateway contract)`, function () {
    this.timeout(20_000);

    /** An intent for a new order, authorized with a good card. */
    async function authorized(t: PaymentGatewayUnderTest, amount = 2_500): Promise<{ intentId: string; orderId: string }> {
      const order = anOrder(amount);
      const created = await t.gateway.authorize({ ...order, paymentMethod: 'pm_card_visa' });
      return { intentId: expectStatus(created, 'authorized').intentId, orderId: order.orderId };
    }

    async function captured(t: PaymentGatewayUnderTest, amount = 2_500): Promise<{ intentId: string; orderId: string }> {
      const intent = await authorized(t, amount);
      expectStatus(await t.gateway.capture({ intentId: intent.intentId, idempotencyKey: paymentKeys.capture(intent.orderId) }), 'captured');
      return intent;
    }

    describe('authorize', () => {
      it('creates an intent awaiting the customer, with the order id, amount, currency and a client secret', async () => {
        const t = await factory();
        const order = anOrder(1_234);
        const created = expectStatus(await t.gateway.authorize(order), 'awaiting');
        expect(created).to.include({ orderId: order.orderId, amount: 1_234, currency: 'USD' });
        expect(created.intentId).to.be.a('string').and.not.equal('');
        expect(created.clientSecret).to.be.a('string').and.not.equal('');
        await t.confirm(created.intentId, 'pm_card_visa');
        const read = expectStatus(await t.gateway.read(created.intentId), 'authorized');
        expect(read).to.include({ intentId: created.intentId, orderId: order.orderId, amountCapturable: 1_234 });
      });

      it('answers the same intent to the same key however often the order is retried: one order, one intent', async () => {
        const t = await factory();
        const order = anOrder();
        const first = await t.gateway.authorize(order);
        await t.confirm(first.intentId, 'pm_card_visa');
        const again = await t.gateway.authorize(order);
        expect(again.intentId).to.equal(first.intentId);
        expectStatus(await t.gateway.read(first.intentId), 'authorized');
      });

      it('refuses the same key with another request (a programming error, as Stripe does)', async () => {
        const t = await factory();
        const order = anOrder(1_000);
        await t.gateway.authorize(order);
        const error = await rejectionOf(t.gateway.authorize({ ...order, amount: 1_001 }));
        expect(error).to.be.instanceOf(InvalidPaymentRequest);
        expect((error as InvalidPaymentRequest).reason).to.equal('idempotency_key_reused');
      });

      it('authorizes at once with a good card, declines with a declining one', async () => {
        const t = await factory();
        expectStatus(await t.gateway.authorize({ ...anOrder(), paymentMethod: 'pm_card_visa' }), 'authorized');
        const order = anOrder();
        const declined = expectStatus(await t.gateway.authorize({ ...order, paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' }), 'declined');
        expect(declined.declineCode).to.equal('insufficient_funds');
        const retried = await t.gateway.authorize({ ...order, paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' });
        expect(retried.intentId).to.equal(declined.intentId);
      });

      it('keeps the intent usable after a declined card: another card on the same intent authorizes it', async () => {
        const t = await factory();
        const created = await t.gateway.authorize(anOrder());
        await t.confirm(created.intentId, 'pm_card_chargeDeclined');
        const declined = expectStatus(await t.gateway.read(created.intentId), 'declined');
        expect(declined.declineCode).to.equal('generic_decline');
        expect(declined.clientSecret).to.equal(expectStatus(created, 'awaiting').clientSecret);
        await t.confirm(created.intentId, 'pm_card_visa');
        expectStatus(await t.gateway.read(created.intentId), 'authorized');
      });

      it('reads an intent whose bank asks for authentication as requires_action', async () => {
        const t = await factory();
        const created = await t.gateway.authorize(anOrder());
        await t.confirm(created.intentId, 'pm_card_authenticationRequired');
        expectStatus(await t.gateway.read(created.intentId), 'requires_action');
      });

      it('lets an authorization not captured in time lapse: canceled and expired, no longer capturable', async () => {
        const t = await factory();
        const { intentId, orderId } = await authorized(t);
        t.advance(7 * DAY_MS + 1_000);
        expect(expectStatus(await t.gateway.read(intentId), 'canceled').expired).to.equal(true);
        const refused = expectStatus(await t.gateway.capture({ intentId, idempotencyKey: paymentKeys.capture(orderId) }), 'refused');
        expect(refused.refusal).to.equal('unexpected_state');
      });
    });

    describe('capture', () => {
      it('captures the whole authorization, once however often retried with its key', async () => {
        const t = await factory();
        const { intentId, orderId } = await authorized(t, 3_000);
        const request = { intentId, idempotencyKey: paymentKeys.capture(orderId) };
        const first = expectStatus(await t.gateway.capture(request), 'captured');
        expect(first).to.include({ amountCaptured: 3_000, amountRefunded: 0 });
        expect(await t.gateway.capture(request)).to.deep.equal(first);
        expectStatus(await t.gateway.read(intentId), 'captured');
      });

      it('captures part of the authorization; more than authorized is refused and changes nothing', async () => {
        const t = await factory();
        const { intentId, orderId } = await authorized(t, 3_000);
        const tooMuch = expectStatus(await t.gateway.capture({ intentId, amount: 3_001, idempotencyKey: `${paymentKeys.capture(orderId)}:1` }), 'refused');
        expect(tooMuch.refusal).to.equal('amount_too_large');
        expectStatus(await t.gateway.read(intentId), 'authorized');
        const part = expectStatus(await t.gateway.capture({ intentId, amount: 2_000, idempotencyKey: paymentKeys.capture(orderId) }), 'captured');
        expect(part.amountCaptured).to.equal(2_000);
      });

      it('refuses to capture an intent the customer has not paid', async () => {
        const t = await factory();
        const order = anOrder();
        const created = await t.gateway.authorize(order);
        const refused = expectStatus(await t.gateway.capture({ intentId: created.intentId, idempotencyKey: paymentKeys.capture(order.orderId) }), 'refused');
        expect(refused.refusal).to.equal('unexpected_state');
      });
    });

    describe('cancel', () => {
      it('cancels before capture, once however often retried; the intent can no longer be captured', async () => {
        const t = await factory();
        const { intentId, orderId } = await authorized(t);
        const request = { intentId, reason: 'abandoned' as const, idempotencyKey: paymentKeys.cancel(orderId) };
        const canceled = expectStatus(await t.gateway.cancel(request), 'canceled');
        expect(canceled.expired).to.equal(false);
        expect(await t.gateway.cancel(request)).to.deep.equal(canceled);
        expectStatus(await t.gateway.capture({ intentId, idempotencyKey: paymentKeys.capture(orderId) }), 'refused');
        expectStatus(await t.gateway.read(intentId), 'canceled');
      });

      it('cancels an intent still awaiting the customer', async () => {
        const t = await factory();
        const order = anOrder();
        const created = await t.gateway.authorize(order);
        expectStatus(await t.gateway.cancel({ intentId: created.intentId, idempotencyKey: paymentKeys.cancel(order.orderId) }), 'canceled');
      });

      it('refuses to cancel after capture (that takes a refund) and leaves the capture as it was', async () => {
        const t = await factory();
        const { intentId, orderId } = await captured(t);
        const refused = expectStatus(await t.gateway.cancel({ intentId, idempotencyKey: paymentKeys.cancel(orderId) }), 'refused');
        expect(refused.refusal).to.equal('unexpected_state');
        expectStatus(await t.gateway.read(intentId), 'captured');
      });
    });

    describe('refund', () => {
      it('refunds in part then the rest: captured with the amount refunded, then refunded', async () => {
        const t = await factory();
        const { intentId } = await captured(t, 2_500);
        const part = expectRefund(
          await t.gateway.refund({ intentId, amount: 1_000, reason: 'Cold pizza', category: 'requested_by_customer', reference: 'rfd_1', idempotencyKey: paymentKeys.refund('rfd_1') }),
        );
        expect(part).to.include({ intentId, amount: 1_000, reason: 'Cold pizza', category: 'requested_by_customer', reference: 'rfd_1' });
        expect(expectStatus(await t.gateway.read(intentId), 'captured')).to.include({ amountCaptured: 2_500, amountRefunded: 1_000 });
        const rest = expectRefund(await t.gateway.refund({ intentId, amount: 1_500, reason: 'Kitchen closed', reference: 'rfd_2', idempotencyKey: paymentKeys.refund('rfd_2') }));
        expect(rest.category).to.equal(null);
        expect(expectStatus(await t.gateway.read(intentId), 'refunded')).to.include({ amountCaptured: 2_500, amountRefunded: 2_500 });
        expect(await t.gateway.readRefund(part.refundId)).to.deep.equal(part);
      });

      it('refunds once however often retried with its key', async () => {
        const t = await factory();
        const { intentId } = await captured(t, 2_500);
        const reference = `rfd_${randomHex(6)}`;
        const request = { intentId, amount: 700, reason: 'Late', reference, idempotencyKey: paymentKeys.refund(reference) };
        const first = expectRefund(await t.gateway.refund(request));
        expect(await t.gateway.refund(request)).to.deep.equal(first);
        expect(expectStatus(await t.gateway.read(intentId), 'captured').amountRefunded).to.equal(700);
      });

      it('refuses a refund above what was captured and not yet refunded; nothing is refunded', async () => {
        const t = await factory();
        const { intentId } = await captured(t, 2_500);
        const above = await t.gateway.refund({ intentId, amount: 2_501, reason: 'x', reference: 'rfd_a', idempotencyKey: paymentKeys.refund('rfd_a') });
        expect(above).to.deep.equal({ status: 'refused', intentId, refusal: 'amount_too_large' });
        expectRefund(await t.gateway.refund({ intentId, amount: 2_000, reason: 'x', reference: 'rfd_b', idempotencyKey: paymentKeys.refund('rfd_b') }));
        const beyond = await t.gateway.refund({ intentId, amount: 501, reason: 'x', reference: 'rfd_c', idempotencyKey: paymentKeys.refund('rfd_c') });
        expect(beyond).to.deep.equal({ status: 'refused', intentId, refusal: 'amount_too_large' });
        expect(expectStatus(await t.gateway.read(intentId), 'captured').amountRefunded).to.equal(2_000);
      });

      it('refuses to refund an intent never captured', async () => {
        const t = await factory();
        const { intentId } = await authorized(t);
        const refused = await t.gateway.refund({ intentId, amount: 100, reason: 'x', reference: 'rfd_n', idempotencyKey: paymentKeys.refund('rfd_n') });
        expect(refused).to.deep.equal({ status: 'refused', intentId, refusal: 'unexpected_state' });
      });
    });

    describe('the provider unavailable', () => {
      it('rejects every call with payment_provider_unavailable; once back, a retry with the same key makes one intent', async () => {
        const t = await factory();
        const { intentId, orderId } = await authorized(t);
        const order = anOrder();
        t.setDown(true);
        const error = await expectDomainError(t.gateway.authorize(order), 'payment_provider_unavailable');
        expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).to.be.a('number');
        await expectDomainError(t.gateway.read(intentId), 'payment_provider_unavailable');
        await expectDomainError(t.gateway.capture({ intentId, idempotencyKey: paymentKeys.capture(orderId) }), 'payment_provider_unavailable');
        await expectDomainError(t.gateway.cancel({ intentId, idempotencyKey: paymentKeys.cancel(orderId) }), 'payment_provider_unavailable');
        await expectDomainError(t.gateway.refund({ intentId, amount: 1, reason: 'x', reference: 'rfd_d', idempotencyKey: paymentKeys.refund('rfd_d') }), 'payment_provider_unavailable');
        t.setDown(false);
        expectStatus(await t.gateway.read(intentId), 'authorized');
        const first = await t.gateway.authorize(order);
        expect((await t.gateway.authorize(order)).intentId).to.equal(first.intentId);
      });
    });
  });
}
