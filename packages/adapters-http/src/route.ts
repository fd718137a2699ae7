/**
 * A route as the route modules declare it: method, path, what a request costs its caller, what a
 * failure lets it do next, and the handler. The Koa file (koa-app.ts) registers these on
 * @koa/router; nothing here knows Koa.
 */
import type { Exchange } from './exchange.js';
import type { Reply } from './reply.js';

/** A handler answers with a Reply: one that forgets to answer does not compile. */
export type Handler = (exchange: Exchange) => Promise<Reply> | Reply;

/**
 * What a request to the route costs its caller (admission.ts): `counted` against the caller's
 * quota (the default), or `peek`: the caller's quota is only looked at, and the request counts
 * against a per-client limit of the route's own instead (status and quota reads, which load
 * balancers and clients poll).
 */
export type Quota = 'counted' | 'peek';

/**
 * The sentence a 500 answer adds about trying again (errors.ts); a function when the truth depends
 * on the request (e.g. whether it carried an Idempotency-Key).
 */
export type RetryAdvice = string | ((exchange: Exchange) => string);

/** Reading routes can always be tried again: a failed read changed nothing. */
export const SAFE_TO_RETRY = 'It is safe to retry.';

interface RouteBase {
  /** Lower-case ASCII, no trailing slash; `:name` for a parameter. Matched case-insensitively, a trailing slash forgiven. */
  readonly path: string;
  readonly quota: Quota;
  readonly retry: RetryAdvice;
  readonly handle: Handler;
}

/** GET (and HEAD): no body. */
export interface ReadRoute extends RouteBase {
  readonly method: 'GET';
}

/** POST: a JSON body (or none), and it must say what a retry after a failure does. */
export interface WriteRoute extends RouteBase {
  readonly method: 'POST';
}

export type Route = ReadRoute | WriteRoute;

export function get(path: string, handle: Handler, options: { readonly quota?: Quota } = {}): ReadRoute {
  return { method: 'GET', path, quota: options.quota ?? 'counted', retry: SAFE_TO_RETRY, handle };
}

export function post(path: string, options: { readonly retry: RetryAdvice; readonly quota?: Quota }, handle: Handler): WriteRoute {
  return { method: 'POST', path, quota: options.quota ?? 'counted', retry: options.retry, handle };
}

export function retryAdviceFor(route: Route | undefined, exchange: Exchange): string {
  const retry = route?.retry ?? SAFE_TO_RETRY;
  return typeof retry === 'string' ? retry : retry(exchange);
}
