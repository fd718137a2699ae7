/**
 * Every error code an HTTP answer can carry, and the one table from code to status. Domain errors
 * bring their code (DomainError); what never reaches the domain (a body that is not JSON, an
 * unknown path, a request line Node's parser refused) is an HttpProblem with a code of its own.
 * Nothing else in the adapter names a status for an error.
 */
import type { DomainError, DomainErrorCode, FieldIssue } from '@storefront/domain';
import { validationFailed } from '@storefront/domain/adapter-kit';

/** Codes of failures that never reach the domain. */
export type HttpErrorCode =
  | 'bad_request'
  | 'invalid_signature'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'expectation_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'internal_error'
  | 'service_unavailable';

export type ErrorCode = DomainErrorCode | HttpErrorCode;

/** Code → status: the only place an error's status is decided. A 5xx never shows its message. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  bad_request: 400,
  invalid_json: 400,
  invalid_signature: 400,
  validation_failed: 400,
  invalid_reset_token: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  account_disabled: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  email_taken: 409,
  idempotency_key_in_use: 409,
  invalid_transition: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  unknown_product: 422,
  product_unavailable: 422,
  idempotency_key_reused: 422,
  store_closed: 422,
  invalid_options: 422,
  slot_unavailable: 422,
  delivery_unavailable: 422,
  outside_delivery_area: 422,
  below_minimum_order: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  database_unavailable: 500,
  service_unavailable: 503,
  payment_provider_unavailable: 503,
  payment_failed: 422,
  refund_exceeds_captured: 422,
};

/** A failure of the request itself, answered with its code's status and its message. */
export class HttpProblem extends Error {
  readonly status: number;

  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: readonly FieldIssue[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpProblem';
    this.status = STATUS_BY_CODE[code];
  }
}

export const REALM = 'Bearer realm="storefront"';
export const INVALID_TOKEN_CHALLENGE = `${REALM}, error="invalid_token"`;

/** A body or query that does not have the shape of the route: the domain's `validation_failed`. */
export function validationProblem(details: readonly FieldIssue[]): DomainError {
  return validationFailed(details);
}
