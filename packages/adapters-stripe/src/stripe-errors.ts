/**
 * Stripe's failures as the port's: a decline is an outcome (the intent it declined), a refusal
 * for the intent's state or amounts is an outcome, the provider unreachable, failing, throttling or
 * too slow is `payment_provider_unavailable`, anything else is a programming or configuration
 * error. Stripe's own message is never passed on (it may quote parameters); neither is the SDK's
 * error as a cause (a card error carries the intent and its client secret).
 */
import { DomainError } from '@storefront/domain';
import { InvalidPaymentRequest, type RefusedPaymentRequest } from '@storefront/domain/adapter-kit';
import { refusalOf } from '@storefront/adapter-support';
import type Stripe from 'stripe';

/** Stripe's error codes for a request the intent's state or amounts forbid. */
const REFUSALS = new Set(['amount_too_large', 'charge_already_refunded', 'payment_intent_unexpected_state', 'charge_not_refundable']);
const RETRY_AFTER_SECONDS = 5;

interface StripeFailure {
  readonly type?: string;
  readonly code?: string;
  readonly statusCode?: number;
  readonly param?: string;
  readonly payment_intent?: Stripe.PaymentIntent;
}

export type Settled = { readonly status: 'declined'; readonly intent: Stripe.PaymentIntent } | RefusedPaymentRequest;

/**
 * What a rejection of the SDK means for `operation` on `intentId` (absent for a create): a value
 * to answer, or an error to throw.
 */
export function settleFailure(failure: unknown, operation: string, intentId?: string): Settled {
  const error = (typeof failure === 'object' && failure !== null ? failure : {}) as StripeFailure;
  const what = `Stripe ${operation}`;
  switch (error.type) {
    case 'StripeCardError':
      if (error.payment_intent !== undefined) return { status: 'declined', intent: error.payment_intent };
      break;
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      throw unavailable(`${what}: ${error.type === 'StripeConnectionError' ? 'no answer in time' : `answered ${error.statusCode ?? 'an error'}`}.`);
    case 'StripeIdempotencyError':
      throw new InvalidPaymentRequest('idempotency_key_reused', `${what}: an idempotency key was reused with another request.`);
    case 'StripeInvalidRequestError': {
      const id = intentId ?? error.payment_intent?.id;
      if (error.code !== undefined && REFUSALS.has(error.code) && id !== undefined) return refusalOf(id, error.code);
      break;
    }
    default:
      break;
  }
  const detail = [error.type ?? 'unexpected failure', error.code, error.param === undefined ? undefined : `param ${error.param}`, error.statusCode]
    .filter((part) => part !== undefined)
    .join(', ');
  throw new InvalidPaymentRequest('invalid_request', `${what} was refused (${detail}).`);
}

export function unavailable(message: string): DomainError {
  return new DomainError('payment_provider_unavailable', `The payment provider is unavailable (${message}); retry shortly.`, {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}
