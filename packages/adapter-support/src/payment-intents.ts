/**
 * Stripe's PaymentIntent and Refund, read as the PaymentGateway port's outcomes: written once for
 * the Stripe adapter (from the API's objects) and the memory card network (which keeps its intents
 * in the same shape), so both gateways answer alike.
 */
import type { PaymentIntentOutcome, RefusedPaymentRequest, Refund, RefundCategory } from '@storefront/domain/adapter-kit';

/** The fields of a Stripe PaymentIntent the outcome depends on (snake_case, as the API has them). */
export interface IntentView {
  readonly id: string;
  readonly status: string;
  readonly amount: number;
  readonly currency: string;
  readonly client_secret: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly amount_capturable: number;
  readonly amount_received: number;
  readonly cancellation_reason: string | null;
  readonly last_payment_error: { readonly code?: string | null; readonly decline_code?: string | null } | null;
  /** Not on the intent itself: its latest charge's `amount_refunded` (0 without a charge). */
  readonly amount_refunded: number;
}

/** The fields of a Stripe Refund the outcome depends on. */
export interface RefundView {
  readonly id: string;
  readonly status: string | null;
  readonly amount: number;
  readonly payment_intent: string | null;
  readonly reason: string | null;
  readonly metadata: Readonly<Record<string, string>>;
}

/** Stripe's own cancellation reasons for an intent it let lapse (an authorization not captured in time). */
const LAPSED = new Set(['automatic', 'expired']);
const CATEGORIES: ReadonlySet<string> = new Set<RefundCategory>(['duplicate', 'fraudulent', 'requested_by_customer']);

export function paymentIntentOutcome(intent: IntentView): PaymentIntentOutcome {
  const facts = {
    intentId: intent.id,
    orderId: intent.metadata['order_id'] ?? '',
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
  };
  const clientSecret = intent.client_secret ?? '';
  switch (intent.status) {
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      if (error === null) return { ...facts, status: 'awaiting', clientSecret };
      return { ...facts, status: 'declined', clientSecret, declineCode: error.decline_code ?? error.code ?? 'declined' };
    }
    case 'requires_confirmation':
      return { ...facts, status: 'awaiting', clientSecret };
    case 'requires_action':
      return { ...facts, status: 'requires_action', clientSecret };
    case 'processing':
      return { ...facts, status: 'processing' };
    case 'requires_capture':
      return { ...facts, status: 'authorized', amountCapturable: intent.amount_capturable };
    case 'succeeded': {
      const captured = { amountCaptured: intent.amount_received, amountRefunded: intent.amount_refunded };
      const whole = captured.amountRefunded > 0 && captured.amountRefunded >= captured.amountCaptured;
      return { ...facts, ...captured, status: whole ? 'refunded' : 'captured' };
    }
    case 'canceled':
      return { ...facts, status: 'canceled', expired: LAPSED.has(intent.cancellation_reason ?? '') };
    default:
      // A status this code does not know (Stripe adds some now and then): the money's fate is undecided.
      return { ...facts, status: 'processing' };
  }
}

export function refundOutcome(refund: RefundView): Refund {
  const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
  return {
    status,
    refundId: refund.id,
    intentId: refund.payment_intent ?? '',
    amount: refund.amount,
    category: refund.reason !== null && CATEGORIES.has(refund.reason) ? (refund.reason as RefundCategory) : null,
    reason: refund.metadata['reason'] ?? '',
    reference: refund.metadata['refund_id'] ?? null,
  };
}

/**
 * A refusal for Stripe's error `code` on a request about `intentId`: an amount beyond what the
 * intent holds (`amount_too_large`, `charge_already_refunded`), or anything else its state forbids.
 */
export function refusalOf(intentId: string, code: string | undefined): RefusedPaymentRequest {
  const tooMuch = code === 'amount_too_large' || code === 'charge_already_refunded';
  return { status: 'refused', intentId, refusal: tooMuch ? 'amount_too_large' : 'unexpected_state' };
}

/** Stripe's longest metadata value: the staff's words are cut to it. */
export const METADATA_VALUE_MAX = 500;
