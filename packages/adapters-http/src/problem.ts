/**
 * HTTP-level failures that never reach the domain (bad JSON, wrong media type, unknown path), and
 * the one table from domain error codes to statuses.
 */
import type { DomainErrorCode, FieldIssue } from '@storefront/domain';

export type HttpErrorCode =
  | 'invalid_json'
  | 'validation_failed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'unauthorized'
  | 'invalid_token'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal_error'
  | 'request_timeout'
  | 'service_unavailable';

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: readonly FieldIssue[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

/**
 * Domain code → HTTP status. Anything not listed is a server fault. A code mapped to 500 is a fault
 * too (generic body, logged); the others, 503 included, are answered with their code and message.
 */
export const STATUS_BY_DOMAIN_CODE: Readonly<Record<DomainErrorCode, number>> = {
  validation_failed: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  account_disabled: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_in_use: 409,
  unknown_product: 422,
  product_unavailable: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  store_unavailable: 500,
  service_unavailable: 503,
};

export const REALM = 'Bearer realm="storefront"';
export const INVALID_TOKEN_CHALLENGE = `${REALM}, error="invalid_token"`;

export function validationProblem(details: readonly FieldIssue[]): HttpProblem {
  return new HttpProblem(400, 'validation_failed', 'The request is invalid.', details);
}
