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

/**
 * Who may call the route beyond what its handler checks: `anyone` (the handler asks for a caller
 * where it needs one), or `staff`, checked once by admission (admission.ts) before the body is
 * read: no token → 401, a customer's token → 403 `forbidden`.
 */
export type Access = 'anyone' | 'staff';

interface RouteBase {
  /** Lower-case ASCII, no trailing slash; `:name` for a parameter. Matched case-insensitively, a trailing slash forgiven. */
  readonly path: string;
  readonly quota: Quota;
  readonly access: Access;
  readonly retry: RetryAdvice;
  readonly handle: Handler;
}

/** GET (and HEAD): no body. */
export interface ReadRoute extends RouteBase {
  readonly method: 'GET';
}

/** POST or PATCH: a JSON body (or none), and it must say what a retry after a failure does. */
export interface WriteRoute extends RouteBase {
  readonly method: 'POST' | 'PATCH';
}

export type Route = ReadRoute | WriteRoute;

interface ReadOptions {
  readonly quota?: Quota;
  readonly access?: Access;
}

interface WriteOptions extends ReadOptions {
  readonly retry: RetryAdvice;
}

export function get(path: string, handle: Handler, options: ReadOptions = {}): ReadRoute {
  return { method: 'GET', path, quota: options.quota ?? 'counted', access: options.access ?? 'anyone', retry: SAFE_TO_RETRY, handle };
}

export function post(path: string, options: WriteOptions, handle: Handler): WriteRoute {
  return write('POST', path, options, handle);
}

/** PATCH: a partial update of a resource, read as JSON like POST. */
export function patch(path: string, options: WriteOptions, handle: Handler): WriteRoute {
  return write('PATCH', path, options, handle);
}

function write(method: WriteRoute['method'], path: string, options: WriteOptions, handle: Handler): WriteRoute {
  return { method, path, quota: options.quota ?? 'counted', access: options.access ?? 'anyone', retry: options.retry, handle };
}

export function retryAdviceFor(route: Route | undefined, exchange: Exchange): string {
  const retry = route?.retry ?? SAFE_TO_RETRY;
  return typeof retry === 'string' ? retry : retry(exchange);
}
