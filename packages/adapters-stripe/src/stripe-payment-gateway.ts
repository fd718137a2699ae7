/**
 * PaymentGateway on Stripe's PaymentIntents: manual capture, `metadata.order_id`, the amount in
 * the currency's minor units with the currency in lower case, the caller's idempotency key on
 * every write. Reads expand the latest charge, whose `amount_refunded` the intent does not carry.
 */
import {
  type AuthorizationRequest,
  type CancelRequest,
  type CaptureRequest,
  type PaymentGateway,
  type PaymentIntentOutcome,
  type Refund,
  type RefundOutcome,
  type RefundRequest,
} from '@storefront/domain/adapter-kit';
import { METADATA_VALUE_MAX, paymentIntentOutcome, refundOutcome } from '@storefront/adapter-support';
import type Stripe from 'stripe';
import { settleFailure } from './stripe-errors.js';
import { intentView, refundView } from './stripe-views.js';

export class StripePaymentGateway implements PaymentGateway {
  readonly provider = 'stripe';

  /** `stripe`: from createStripeClient (time-out, retries, base URL); this gateway never closes it. */
  constructor(private readonly stripe: Stripe) {}

  async authorize(request: AuthorizationRequest): Promise<PaymentIntentOutcome> {
    const params: Stripe.PaymentIntentCreateParams = {
      amount: request.amount,
      currency: request.currency.toLowerCase(),
      capture_method: 'manual',
      metadata: { order_id: request.orderId },
      ...(request.paymentMethod === undefined ? {} : { payment_method: request.paymentMethod, confirm: true }),
    };
    return this.intentCall('create', undefined, () => this.stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey }));
  }

  async read(intentId: string): Promise<PaymentIntentOutcome> {
    return this.intentCall('retrieve', intentId, () => this.stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }));
  }

  async capture(request: CaptureRequest): Promise<PaymentIntentOutcome> {
    const params: Stripe.PaymentIntentCaptureParams = request.amount === undefined ? {} : { amount_to_capture: request.amount };
    return this.intentCall('capture', request.intentId, () =>
      this.stripe.paymentIntents.capture(request.intentId, params, { idempotencyKey: request.idempotencyKey }),
    );
  }

  async cancel(request: CancelRequest): Promise<PaymentIntentOutcome> {
    const params: Stripe.PaymentIntentCancelParams = request.reason === undefined ? {} : { cancellation_reason: request.reason };
    return this.intentCall('cancel', request.intentId, () =>
      this.stripe.paymentIntents.cancel(request.intentId, params, { idempotencyKey: request.idempotencyKey }),
    );
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const params: Stripe.RefundCreateParams = {
      payment_intent: request.intentId,
      amount: request.amount,
      metadata: { reason: request.reason.slice(0, METADATA_VALUE_MAX), refund_id: request.reference },
      ...(request.category === undefined ? {} : { reason: request.category }),
    };
    try {
      return refundOutcome(refundView(await this.stripe.refunds.create(params, { idempotencyKey: request.idempotencyKey })));
    } catch (failure) {
      const settled = settleFailure(failure, 'refund', request.intentId);
      if (settled.status === 'refused') return settled;
      throw failure;
    }
  }

  async readRefund(refundId: string): Promise<Refund> {
    try {
      return refundOutcome(refundView(await this.stripe.refunds.retrieve(refundId)));
    } catch (failure) {
      settleFailure(failure, 'refund retrieve');
      throw failure;
    }
  }

  private async intentCall(operation: string, intentId: string | undefined, call: () => Promise<Stripe.PaymentIntent>): Promise<PaymentIntentOutcome> {
    try {
      return paymentIntentOutcome(intentView(await call()));
    } catch (failure) {
      const settled = settleFailure(failure, operation, intentId);
      return settled.status === 'refused' ? settled : paymentIntentOutcome(intentView(settled.intent));
    }
  }
}
