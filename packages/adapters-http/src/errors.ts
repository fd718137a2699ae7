/**
 * The one place errors become replies. Every status comes from STATUS_BY_CODE (problem.ts): domain
 * errors by their code, HTTP problems by theirs; anything else is a 500 with a generic body that
 * says only what the client may do next (the route's retry advice). No body ever carries a stack
 * trace or a driver message; the caller logs the unexpected ones with their cause.
 */
import type { FieldIssue } from '@storefront/domain';
import type { RateLimitStatus } from '@storefront/domain/adapter-kit';
import { DomainError, RateLimitedError } from '@storefront/domain';
import { HTTP_LIMITS } from './limits.js';
import { HttpProblem, INVALID_TOKEN_CHALLENGE, REALM, STATUS_BY_CODE } from './problem.js';
import { json, type Reply } from './reply.js';
import { wirePath } from './wire-paths.js';

interface DetailJson {
  path: string;
  message: string;
  minimum_order?: number;
}

/** A field issue as the interface writes it (snake_case, the wire's names). */
function detailJson(issue: FieldIssue): DetailJson {
  const detail: DetailJson = { path: wirePath(issue.path), message: issue.message };
  if (issue.minimumOrder !== undefined) detail.minimum_order = issue.minimumOrder;
  return detail;
}

interface ErrorBody {
  error: string;
  message?: string;
  details?: readonly DetailJson[];
  retry_after?: number;
}

export interface ErrorOutcome {
  readonly reply: Reply;
  /** The quota to report, when the error is a rate-limit refusal of the caller's quota. */
  readonly rateLimit?: RateLimitStatus;
  /** True for a failure on our side that the client is told nothing about: log it. */
  readonly unexpected: boolean;
}

/** The body of every 500: nothing about the cause, only what the client may do next. */
export function internalErrorBody(retryAdvice: string): { error: 'internal_error'; message: string } {
  return { error: 'internal_error', message: `The operation failed on our side. ${retryAdvice}` };
}

export function errorReply(error: unknown, retryAdvice: string): ErrorOutcome {
  if (error instanceof HttpProblem) {
    const body: ErrorBody = { error: error.code, message: error.message };
    if (error.details !== undefined) addDetails(body, error.details);
    return { reply: json(error.status, body, Object.entries(error.headers).flat()), unexpected: false };
  }
  if (error instanceof DomainError && STATUS_BY_CODE[error.code] !== 500) {
    const status = STATUS_BY_CODE[error.code];
    // Too busy now: what a retry does is the route's to say, as for a 500 (a write of several steps,
    // refused at a later one, may have stored its first).
    const message = error.code === 'service_unavailable' ? `${error.message} ${retryAdvice}` : error.message;
    const body: ErrorBody = error.code === 'invalid_credentials' ? { error: error.code } : { error: error.code, message };
    if (error.details !== undefined) addDetails(body, error.details);
    const headers: string[] = [];
    if (error.retryAfterSeconds !== undefined) {
      body.retry_after = error.retryAfterSeconds;
      headers.push('Retry-After', String(error.retryAfterSeconds));
    }
    if (status === 401) {
      const tokenProblem = error.code === 'invalid_token' || error.code === 'token_expired';
      headers.push('WWW-Authenticate', tokenProblem ? INVALID_TOKEN_CHALLENGE : REALM);
    }
    const reply = json(status, body, headers);
    return error instanceof RateLimitedError ? { reply, rateLimit: error.status, unexpected: false } : { reply, unexpected: false };
  }
  if (isClientHttpError(error)) {
    const code = error.status === 413 ? 'payload_too_large' : 'invalid_json';
    return { reply: json(STATUS_BY_CODE[code], { error: code, message: 'The request could not be read.' }), unexpected: false };
  }
  return { reply: json(STATUS_BY_CODE.internal_error, internalErrorBody(retryAdvice)), unexpected: true };
}

/**
 * The first HTTP_LIMITS.maxDetails issues, then (when there were more) one last entry about the whole
 * request (path ``) saying how many more: a last entry rather than a new field, so that every client
 * that reads `details` keeps reading it as it is.
 */
function addDetails(body: ErrorBody, details: readonly FieldIssue[]): void {
  const max = HTTP_LIMITS.maxDetails;
  if (details.length <= max) {
    body.details = details.map(detailJson);
    return;
  }
  body.details = [...details.slice(0, max).map(detailJson), { path: '', message: `and ${details.length - max} more issues, not listed` }];
}

/** Errors from Koa or its body reader that carry a 4xx status (aborted, malformed, too large). */
function isClientHttpError(error: unknown): error is { status: number } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
