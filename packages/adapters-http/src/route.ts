/**
 * A route as the route modules declare it: method, path, what a request costs its caller, what a
 * failure lets it do next, and the handler. The Koa file (koa-app.ts) registers these on
 * @koa/router; nothing here knows Koa.
 */
import type { CheckedRequest } from './contract/operations.js';
import type { Input, OperationId } from './contract/input.js';
import type { Exchange } from './exchange.js';
import type { Reply } from './reply.js';

/**
 * A handler answers with a Reply: one that forgets to answer does not compile. It is given its
 * operation's input as openapi.yaml describes it, already checked (dispatch.ts).
 */
export type Handler<K extends OperationId> = (exchange: Exchange, input: Input<K>) => Promise<Reply> | Reply;

/** What a route outside the document (the API reference's pages) is given: the router's path parameters. */
export interface UnlistedInput {
  readonly params: Readonly<Record<string, string>>;
}
type UnlistedHandler = (exchange: Exchange, input: UnlistedInput) => Promise<Reply> | Reply;

/** What a route that reads its body raw is given: its operation's parameters, and the body's bytes as they came. */
export type RawInput<K extends OperationId> = Omit<Input<K>, 'body'> & { readonly body: Buffer };
type RawHandler<K extends OperationId> = (exchange: Exchange, input: RawInput<K>) => Promise<Reply> | Reply;

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
 * Who may call the route: `anyone`; `caller`, a logged-in caller, checked after the body is read and
 * before it is checked (dispatch.ts: a body that is not JSON is 400 even without a token, a body of
 * the wrong shape without one is 401); `staff` or `admin`, checked once by admission (admission.ts)
 * before the body is read: no token → 401, a token of a role below → 403 `forbidden`.
 */
export type Access = 'anyone' | 'caller' | 'staff' | 'admin';

interface RouteBase {
  /** Lower-case ASCII, no trailing slash; `:name` for a parameter. Matched case-insensitively, a trailing slash forgiven. */
  readonly path: string;
  readonly quota: Quota;
  readonly access: Access;
  readonly retry: RetryAdvice;
  /** The operation of openapi.yaml the route serves; undefined for the API reference's own pages. */
  readonly operation: OperationId | undefined;
  /**
   * Set when the body is read as bytes, at most this many (more: 413), and handed over untouched:
   * neither parsed nor checked against the document, because what vouches for it is a signature
   * over the exact bytes (the payment provider's events). Its operation describes no body schema.
   */
  readonly rawBodyLimit?: number;
  /** Called with the input its operation's check made (dispatch.ts). */
  readonly handle: (exchange: Exchange, input: CheckedRequest) => Promise<Reply> | Reply;
}

/** GET (and HEAD): no body. */
export interface ReadRoute extends RouteBase {
  readonly method: 'GET';
}

/** POST or PATCH: a JSON body (or none); DELETE: none. Each must say what a retry after a failure does. */
export interface WriteRoute extends RouteBase {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
}

export type Route = ReadRoute | WriteRoute;

interface ReadOptions {
  readonly quota?: Quota;
  readonly access?: Access;
}

interface WriteOptions extends ReadOptions {
  readonly retry: RetryAdvice;
}

export function get<K extends OperationId>(path: string, operation: K, handle: Handler<K>, options: ReadOptions = {}): ReadRoute {
  return { method: 'GET', path, quota: options.quota ?? 'counted', access: options.access ?? 'anyone', retry: SAFE_TO_RETRY, operation, handle: handle as unknown as RouteBase['handle'] };
}

/** A GET route that openapi.yaml does not describe: the API reference's own pages. */
export function unlisted(path: string, handle: UnlistedHandler, options: ReadOptions = {}): ReadRoute {
  return { method: 'GET', path, quota: options.quota ?? 'counted', access: options.access ?? 'anyone', retry: SAFE_TO_RETRY, operation: undefined, handle: handle as unknown as RouteBase['handle'] };
}

export function post<K extends OperationId>(path: string, operation: K, options: WriteOptions, handle: Handler<K>): WriteRoute {
  return write('POST', path, operation, options, handle);
}

/** POST of a body read raw, up to `limitBytes` (see RouteBase.rawBodyLimit). */
export function rawPost<K extends OperationId>(path: string, operation: K, options: WriteOptions & { readonly limitBytes: number }, handle: RawHandler<K>): WriteRoute {
  return { ...write('POST', path, operation, options, handle as unknown as Handler<K>), rawBodyLimit: options.limitBytes };
}

/** PATCH: a partial update of a resource, read as JSON like POST. */
export function patch<K extends OperationId>(path: string, operation: K, options: WriteOptions, handle: Handler<K>): WriteRoute {
  return write('PATCH', path, operation, options, handle);
}

/** DELETE: removes a resource; no body. */
export function del<K extends OperationId>(path: string, operation: K, options: WriteOptions, handle: Handler<K>): WriteRoute {
  return write('DELETE', path, operation, options, handle);
}

function write<K extends OperationId>(method: WriteRoute['method'], path: string, operation: K, options: WriteOptions, handle: Handler<K>): WriteRoute {
  // The check made the input of this operation from the request (dispatch.ts): the cast is where
  // the document's types meet the values it checked.
  return { method, path, quota: options.quota ?? 'counted', access: options.access ?? 'anyone', retry: options.retry, operation, handle: handle as unknown as RouteBase['handle'] };
}

export function retryAdviceFor(route: Route | undefined, exchange: Exchange): string {
  const retry = route?.retry ?? SAFE_TO_RETRY;
  return typeof retry === 'string' ? retry : retry(exchange);
}
