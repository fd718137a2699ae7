/** What the middleware chain learns about a request, shared with the route handlers. */
import type { Caller, RateLimitStatus } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import type { Context } from 'koa';
import type { Reply } from './reply.js';
import type { Endpoint } from './router.js';

export interface RequestState {
  requestId: string;
  /** The answer being built; written once by the lifecycle middleware. */
  reply: Reply;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Set when a valid access token was presented. */
  caller?: Caller;
  /** Set when an Authorization header was presented but could not be accepted. */
  authError?: unknown;
  rateLimit?: RateLimitStatus;
  /** The route that matched the method and path; unset for a 404, 405 or OPTIONS. */
  endpoint?: Endpoint;
  /** Made on first use by requestSignal (request-signal.ts); fired when nobody reads the answer. */
  abort?: AbortController;
}

export function stateOf(ctx: Context): RequestState {
  return ctx.state as RequestState;
}

/**
 * The client's address: `ctx.ip`, without its cost when proxies are not trusted (Koa reads and
 * splits X-Forwarded-For on every request even then, to ignore it). With trusted proxies it is the
 * X-Forwarded-For entry the outermost trusted proxy appended (`trustProxyHops` from the right, Koa's
 * `maxIpsCount`), never an entry the client wrote. Rate limits key it with `clientLimitKey`.
 */
export function clientAddress(ctx: Context): string {
  return ctx.app.proxy ? ctx.ip : (ctx.req.socket.remoteAddress ?? '');
}

/** The logged-in caller, or `unauthorized` for an anonymous request. */
export function requireCaller(ctx: Context): Caller {
  const caller = stateOf(ctx).caller;
  if (caller === undefined) {
    throw new DomainError('unauthorized', 'Log in first and send the access token as "Authorization: Bearer <token>".');
  }
  return caller;
}
