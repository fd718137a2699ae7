/**
 * The one place errors become replies. Domain errors map through STATUS_BY_DOMAIN_CODE; HTTP
 * problems carry their own status; anything else is a 500 with a generic body, logged once with its
 * cause and the request id. No body ever carries a stack trace or a driver message.
 */
import { DomainError, RateLimitedError } from '@storefront/domain';
import type { Context } from 'koa';
import type { HttpLogger } from '../app.js';
import { HttpProblem, INVALID_TOKEN_CHALLENGE, REALM, STATUS_BY_DOMAIN_CODE } from '../problem.js';
import type { Reply } from '../reply.js';
import { SAFE_TO_RETRY } from '../router.js';
import { stateOf } from '../state.js';
import { setRateLimitHeaders } from './rate-limit.js';

interface ErrorBody {
  error: string;
  message?: string;
  details?: readonly { path: string; message: string }[];
  retry_after?: number;
}

/** Headers a successful handler may have set that must not survive into an error response. */
const SUCCESS_ONLY_HEADERS = ['ETag', 'Link', 'Idempotent-Replayed', 'X-Refresh-Token-Expires-In', 'Location', 'Content-Type'];

/**
 * The body of every 500: nothing about the cause reaches the client, only what it may do next, as
 * the matched route says (router.ts, `retry`): a read can be retried, a keyed order too, an order
 * without a key cannot. A request no route answered changed nothing and can be retried.
 */
export function internalErrorBody(ctx: Context): { error: 'internal_error'; message: string } {
  const retry = stateOf(ctx).endpoint?.retry ?? SAFE_TO_RETRY;
  return { error: 'internal_error', message: `The operation failed on our side. ${typeof retry === 'string' ? retry : retry(ctx)}` };
}

export function notFound(): HttpProblem {
  return new HttpProblem(404, 'not_found', 'No such resource.');
}

/** Turns `error` into the reply's status, headers and JSON body. */
export function replyWithError(ctx: Context, reply: Reply, error: unknown, logger: HttpLogger): void {
  for (const header of SUCCESS_ONLY_HEADERS) reply.remove(header);
  let status: number;
  let body: ErrorBody;
  if (error instanceof HttpProblem) {
    status = error.status;
    body = { error: error.code, message: error.message };
    if (error.details !== undefined) body.details = error.details;
    for (const [name, value] of Object.entries(error.headers)) reply.set(name, value);
  } else if (error instanceof DomainError && STATUS_BY_DOMAIN_CODE[error.code] !== 500) {
    status = STATUS_BY_DOMAIN_CODE[error.code];
    body = error.code === 'invalid_credentials' ? { error: error.code } : { error: error.code, message: error.message };
    if (error.details !== undefined) body.details = error.details;
    if (error.retryAfterSeconds !== undefined) {
      body.retry_after = error.retryAfterSeconds;
      reply.set('Retry-After', String(error.retryAfterSeconds));
    }
    if (error instanceof RateLimitedError) setRateLimitHeaders(reply, error.status);
    if (status === 401) {
      const tokenProblem = error.code === 'invalid_token' || error.code === 'token_expired';
      reply.set('WWW-Authenticate', tokenProblem ? INVALID_TOKEN_CHALLENGE : REALM);
    }
  } else if (isClientHttpError(error)) {
    status = error.status;
    body = { error: status === 413 ? 'payload_too_large' : 'invalid_json', message: 'The request could not be read.' };
  } else {
    status = 500;
    body = internalErrorBody(ctx);
    logger.error({ req_id: stateOf(ctx).requestId, method: ctx.method, path: ctx.path, err: error }, 'request failed');
  }
  reply.send(status, body);
  // Refused before the whole body arrived (a bad Content-Encoding, a body over the limit): its unread
  // rest stays in the connection, and a keep-alive client's next request would wait behind it until
  // the server's request time-out. Close the connection instead of reading the rest.
  if (!ctx.req.complete) reply.set('Connection', 'close');
}

/** Errors from Koa or its body reader that carry a 4xx status (aborted, malformed, too large). */
function isClientHttpError(error: unknown): error is { status: number } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
