/**
 * The payment provider, as the order lifecycle needs it: one card authorization per order (an
 * intent the customer confirms in the browser), captured when the kitchen accepts, cancelled when
 * it does not, refunded in part or whole afterwards. Stripe's PaymentIntents are the model
 * (@storefront/adapters-stripe); @storefront/adapters-memory has a gateway that behaves alike.
 *
 * Every write carries its own idempotency key (paymentKeys): the same key with the same request
 * answers what the first call answered and changes nothing more; the same key with another request
 * rejects with InvalidPaymentRequest. What the provider answers about money is a value
 * (PaymentIntentOutcome, RefundOutcome), never an exception; the provider unreachable, failing or
 * too slow rejects with DomainError `payment_provider_unavailable`.
 */

/** Stripe's own refund categories; anything the staff write goes in `RefundRequest.reason`. */
export type RefundCategory = 'duplicate' | 'fraudulent' | 'requested_by_customer';

/** Stripe's own reasons to cancel an intent. */
export type CancelReason = 'abandoned' | 'duplicate' | 'fraudulent' | 'requested_by_customer';

export interface AuthorizationRequest {
  readonly orderId: string;
  /** Minor units of `currency`, at least 1. */
  readonly amount: number;
  /** ISO 4217, as the store has it (`USD`); adapters send it as their provider wants it. */
  readonly currency: string;
  /** paymentKeys.authorize(orderId): one order, one intent, whatever is retried. */
  readonly idempotencyKey: string;
  /**
   * A payment method to confirm with at once (a saved card, a test card). Absent: the intent waits
   * for the customer to confirm it in the browser with its `clientSecret`.
   */
  readonly paymentMethod?: string;
}

export interface CaptureRequest {
  readonly intentId: string;
  /** At most the authorized amount; absent: all of it. */
  readonly amount?: number;
  readonly idempotencyKey: string;
}

export interface CancelRequest {
  readonly intentId: string;
  readonly reason?: CancelReason;
  readonly idempotencyKey: string;
}

export interface RefundRequest {
  readonly intentId: string;
  /** Minor units, at least 1, at most what was captured and not yet refunded. */
  readonly amount: number;
  /** The staff's words, kept by the provider as metadata (`reason`). */
  readonly reason: string;
  /** Set only when one of the provider's own categories applies. */
  readonly category?: RefundCategory;
  /**
   * Our record of the refund (`rf_…`), kept by the provider as metadata (`refund_id`): the refund's
   * news then finds its record even when the answer to this call was lost.
   */
  readonly reference: string;
  readonly idempotencyKey: string;
}

interface IntentFacts {
  readonly intentId: string;
  readonly orderId: string;
  readonly amount: number;
  /** Upper case, as the store has it. */
  readonly currency: string;
}

/** Created, waiting for the customer to confirm it with a card (`clientSecret` is for Stripe.js). */
export interface AwaitingPayment extends IntentFacts {
  readonly status: 'awaiting';
  readonly clientSecret: string;
}
/** The last card was declined; the same intent takes another card. */
export interface DeclinedPayment extends IntentFacts {
  readonly status: 'declined';
  readonly clientSecret: string;
  /** The issuer's reason (`generic_decline`, `insufficient_funds`, ...). */
  readonly declineCode: string;
}
/** The customer's bank asks them to authenticate (3-D Secure). */
export interface PaymentRequiringAction extends IntentFacts {
  readonly status: 'requires_action';
  readonly clientSecret: string;
}
/** The provider is still deciding (rare for cards). */
export interface ProcessingPayment extends IntentFacts {
  readonly status: 'processing';
}
/** The money is held on the card, ready to be captured. */
export interface AuthorizedPayment extends IntentFacts {
  readonly status: 'authorized';
  readonly amountCapturable: number;
}
/** Captured; `amountRefunded` below `amountCaptured` (0 when nothing was refunded). */
export interface CapturedPayment extends IntentFacts {
  readonly status: 'captured';
  readonly amountCaptured: number;
  readonly amountRefunded: number;
}
/** Captured and refunded in full. */
export interface RefundedPayment extends IntentFacts {
  readonly status: 'refunded';
  readonly amountCaptured: number;
  readonly amountRefunded: number;
}
/** Cancelled: nothing was or will be charged. `expired` when the provider let it lapse on its own. */
export interface CanceledPayment extends IntentFacts {
  readonly status: 'canceled';
  readonly expired: boolean;
}
/**
 * The provider refused the request for the intent as it stands: more than it holds
 * (`amount_too_large`), or not possible in its state (`unexpected_state`: capture of an intent not
 * authorized, cancel after capture). Nothing changed.
 */
export interface RefusedPaymentRequest {
  readonly status: 'refused';
  readonly intentId: string;
  readonly refusal: 'amount_too_large' | 'unexpected_state';
}

export type PaymentIntentOutcome =
  | AwaitingPayment
  | DeclinedPayment
  | PaymentRequiringAction
  | ProcessingPayment
  | AuthorizedPayment
  | CapturedPayment
  | RefundedPayment
  | CanceledPayment
  | RefusedPaymentRequest;

export type PaymentStatus = PaymentIntentOutcome['status'];

export interface Refund {
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly refundId: string;
  readonly intentId: string;
  readonly amount: number;
  readonly category: RefundCategory | null;
  /** The staff's words, as kept by the provider. */
  readonly reason: string;
  /** Our record's id (RefundRequest.reference) as kept by the provider; null for a refund made elsewhere (the dashboard). */
  readonly reference: string | null;
}

export type RefundOutcome = Refund | RefusedPaymentRequest;

/**
 * A request the provider can never accept as sent: an idempotency key reused with another request
 * (`idempotency_key_reused`), an unknown intent or refund, a malformed parameter, a bad API key
 * (`invalid_request`). A programming or configuration error (an HTTP 500), never the customer's;
 * its message names no key, secret or card.
 */
export class InvalidPaymentRequest extends Error {
  constructor(
    readonly reason: 'idempotency_key_reused' | 'invalid_request',
    message: string,
  ) {
    super(message);
    this.name = 'InvalidPaymentRequest';
  }
}

/**
 * Port: the card payment provider. Each method's contract is checked for every adapter by
 * describePaymentGatewayContract (@storefront/testing); a rejection is either InvalidPaymentRequest
 * or DomainError `payment_provider_unavailable` (with `retryAfterSeconds`).
 */
export interface PaymentGateway {
  /** The provider's name on the order's `payment` (`stripe`, `memory`). */
  readonly provider: string;
  /**
   * Creates the order's intent (manual capture). Contract: the same key and request answer the
   * same intent however often sent (one order, one intent); the same key with another amount is an
   * InvalidPaymentRequest; with a declining `paymentMethod` the answer is `declined`, with a good
   * one `authorized`, without one `awaiting` with a client secret.
   */
  authorize(request: AuthorizationRequest): Promise<PaymentIntentOutcome>;
  /**
   * The intent as it stands now (after the customer's confirmations, captures, refunds, expiry).
   * Contract: a declined card then a good one on the same intent reads `authorized`; an intent
   * left unconfirmed or uncaptured past the provider's window reads `canceled` with `expired`.
   * Reads change nothing, so they carry no key.
   */
  read(intentId: string): Promise<PaymentIntentOutcome>;
  /**
   * Captures an authorized intent, in whole or in part. Contract: `captured` with the amount;
   * twice with one key captures once; more than authorized, or an intent not authorized (awaiting,
   * cancelled, already captured under another key) is `refused`.
   */
  capture(request: CaptureRequest): Promise<PaymentIntentOutcome>;
  /**
   * Cancels an intent not captured: the hold is released, nothing is charged. Contract: `canceled`;
   * twice with one key is one cancellation; after capture it is `refused` (refund instead).
   */
  cancel(request: CancelRequest): Promise<PaymentIntentOutcome>;
  /**
   * Refunds part or all of what was captured. Contract: a refund with its id; partial refunds add
   * up and the intent reads `captured` then `refunded`; more than captured minus refunded, or an
   * intent never captured, is `refused`; twice with one key is one refund.
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** A refund as it stands now (its status may settle later). Contract: reads what `refund` made. */
  readRefund(refundId: string): Promise<Refund>;
}
