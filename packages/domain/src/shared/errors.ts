/**
 * Domain errors: a stable machine code and never an HTTP status. The HTTP adapter owns the one
 * `code → status` table; embedders map codes however suits them.
 */
export type DomainErrorCode =
  | 'validation_failed'
  | 'invalid_credentials'
  | 'unauthorized'
  | 'invalid_token'
  | 'token_expired'
  | 'account_disabled'
  | 'forbidden'
  | 'not_found'
  | 'unknown_product'
  | 'product_unavailable'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_use'
  | 'rate_limited'
  | 'conflict'
  /** Sign-up with an email another account has (compared trimmed and lower-cased). */
  | 'email_taken'
  /** A password reset token that is unknown, expired or already used. */
  | 'invalid_reset_token'
  /** The database (not the restaurant: that is `store_closed`) cannot be reached or answered too late. */
  | 'database_unavailable'
  /** The order has moved on: this status change is not (or no longer) possible from where it is. */
  | 'invalid_transition'
  /** The caller's precondition (If-Match: the version it last saw) no longer holds. */
  | 'precondition_failed'
  /** The store is outside its opening hours or has paused ordering. */
  | 'store_closed'
  /** An order line's options do not fit its product's option groups (`details` names each group at fault). */
  | 'invalid_options'
  /** The chosen time (or, for `asap`, every slot before closing) is not offered: closed, too soon, too far or full. */
  | 'slot_unavailable'
  /** Delivery was asked for and the store has no delivery zones. */
  | 'delivery_unavailable'
  /** The delivery address is in none of the store's zones. */
  | 'outside_delivery_area'
  /** The items come to less than the delivery zone's minimum (`details[].minimumOrder`). */
  | 'below_minimum_order'
  /** Too busy to take this request now (e.g. too many logins waiting for a password hash); retry later. */
  | 'service_unavailable'
  /** The payment provider cannot be reached, failed or answered too late; retry later (`retryAfterSeconds`). */
  | 'payment_provider_unavailable'
  /** The payment cannot be taken as asked (an intent that can no longer be captured): nothing changed. */
  | 'payment_failed'
  /** A refund above what was captured and not yet refunded. */
  | 'refund_exceeds_captured';

/** One problem with one input field; `path` is a JSON-pointer-like dotted path (`items.0.quantity`). */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
  /** `below_minimum_order` only: the zone's minimum, in minor units. */
  readonly minimumOrder?: number;
}

/** What a DomainError may carry besides its code and message. */
export interface DomainErrorOptions {
  readonly cause?: unknown;
  readonly details?: readonly FieldIssue[];
  /** Seconds until a retry may succeed (rate limiting, `service_unavailable`). */
  readonly retryAfterSeconds?: number;
}

/**
 * The one error type of the domain. `code` is stable and machine-readable (transports map it to a
 * status); `message` is a sentence for a person; `details` names the inputs at fault.
 */
export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly details: readonly FieldIssue[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: DomainErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True when `value` is a DomainError (with `code`, when given). */
export function isDomainError(value: unknown, code?: DomainErrorCode): value is DomainError {
  return value instanceof DomainError && (code === undefined || value.code === code);
}

/** A `validation_failed` DomainError listing the inputs at fault. */
export function validationFailed(details: readonly FieldIssue[], message = 'The request is invalid.'): DomainError {
  return new DomainError('validation_failed', message, { details });
}
