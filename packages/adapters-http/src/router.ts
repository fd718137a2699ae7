/**
 * Routing on a fixed set of literal paths: one map lookup per request instead of a regular
 * expression per route, and handler chains composed once at start instead of per request. Matching
 * is what @koa/router did with its defaults (case-insensitive, an optional trailing slash, no
 * decoding); GET routes also answer HEAD. A known path with another method is 405 with `Allow`
 * (OPTIONS: 204 with `Allow`); an unknown path falls through to the 404 of the error handler.
 *
 * What a request costs its caller (`quota`) and what a failure lets it do next (`retry`) are
 * properties of the route as registered, read from the match: whatever spelling of the path
 * reached the route, the same rules apply. Admission runs once the match is known, for every
 * request (404, 405 and OPTIONS included), before the handler.
 */
import type { Context, Middleware } from 'koa';
import { HttpProblem } from './problem.js';
import { replyOf } from './reply.js';
import { stateOf } from './state.js';

/**
 * What a request to the route costs its caller (middleware/admission.ts): `counted` against the
 * caller's quota (the default), or `peek`: the caller's quota is only looked at, and the request
 * counts against a per-client limit of the route's own instead (status and quota reads, which load
 * balancers and clients poll).
 */
export type Quota = 'counted' | 'peek';

/**
 * The sentence a 500 answer adds about trying again (middleware/errors.ts); a function when the
 * truth depends on the request (e.g. whether it carried an Idempotency-Key).
 */
export type RetryAdvice = string | ((ctx: Context) => string);

/** Reading routes can always be tried again: a failed read changed nothing. */
export const SAFE_TO_RETRY = 'It is safe to retry.';

export interface RouteOptions {
  readonly quota?: Quota;
  /** Default for GET: `SAFE_TO_RETRY`. */
  readonly retry?: RetryAdvice;
}

/** A route that changes something must say what a retry after a failure does. */
export interface WriteRouteOptions extends RouteOptions {
  readonly retry: RetryAdvice;
}

/** One method of one path, as registered: what the router matched for a request. */
export interface Endpoint {
  /** The path as registered (lower case, no trailing slash), whatever the request spelled. */
  readonly path: string;
  readonly quota: Quota;
  readonly retry: RetryAdvice;
  readonly handler: Middleware;
}

/**
 * The admission step (middleware/admission.ts), run before the handler once the route is known:
 * `endpoint` is undefined for a request no route answers (404, 405, OPTIONS).
 */
export type Admit = (ctx: Context, endpoint: Endpoint | undefined) => Promise<void>;

interface Route {
  readonly endpoints: Map<string, Endpoint>;
  /** The `Allow` header: every method of the path, in the order they were added. */
  allow: string;
}

const ASCII = /^[\x00-\x7f]*$/;

export class Router {
  private readonly routes = new Map<string, Route>();
  private readonly entries: { readonly method: string; readonly path: string }[] = [];

  /** Every route as registered (`HEAD`, implied by `GET`, is not listed). */
  table(): { readonly method: string; readonly path: string }[] {
    return [...this.entries];
  }

  get(path: string, ...handlers: Middleware[]): this;
  get(path: string, options: RouteOptions, ...handlers: Middleware[]): this;
  get(path: string, ...rest: (RouteOptions | Middleware)[]): this {
    const [options, handlers] = split(rest);
    return this.add(['HEAD', 'GET'], path, { quota: options.quota ?? 'counted', retry: options.retry ?? SAFE_TO_RETRY }, handlers);
  }

  post(path: string, options: WriteRouteOptions, ...handlers: Middleware[]): this {
    return this.add(['POST'], path, { quota: options.quota ?? 'counted', retry: options.retry }, handlers);
  }

  /** The router as one middleware; `admit` runs first, for every request. */
  middleware(admit: Admit = admitAll): Middleware {
    return async (ctx, next) => {
      const route = this.find(ctx.path);
      const endpoint = route?.endpoints.get(ctx.method);
      if (endpoint !== undefined) stateOf(ctx).endpoint = endpoint;
      await admit(ctx, endpoint);
      if (endpoint !== undefined) {
        // Awaited, not returned: an async function that returns a promise takes two more microtask
        // turns to adopt it.
        await endpoint.handler(ctx, next);
        return;
      }
      if (route === undefined) {
        await next();
        return;
      }
      if (ctx.method === 'OPTIONS') {
        const reply = replyOf(ctx);
        reply.set('Allow', route.allow);
        reply.send(204);
        return;
      }
      throw new HttpProblem(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${route.allow}.`, undefined, { Allow: route.allow });
    };
  }

  private add(methods: readonly string[], path: string, properties: Pick<Endpoint, 'quota' | 'retry'>, handlers: readonly Middleware[]): this {
    const key = normalize(path);
    if (key === undefined || key !== path) throw new Error(`route paths are lower-case ASCII without a trailing slash: ${path}`);
    let route = this.routes.get(key);
    if (route === undefined) {
      route = { endpoints: new Map(), allow: '' };
      this.routes.set(key, route);
    }
    this.entries.push({ method: methods[methods.length - 1]!, path });
    const endpoint: Endpoint = { path, ...properties, handler: chainOf(handlers) };
    for (const method of methods) {
      if (route.endpoints.has(method)) throw new Error(`${method} ${path} is routed twice`);
      route.endpoints.set(method, endpoint);
    }
    route.allow = [...route.endpoints.keys()].join(', ');
    return this;
  }

  private find(path: string): Route | undefined {
    // The exact path is the common case; then case and a trailing slash are forgiven.
    return this.routes.get(path) ?? this.routesGetNormalized(path);
  }

  private routesGetNormalized(path: string): Route | undefined {
    const key = normalize(path);
    return key === undefined ? undefined : this.routes.get(key);
  }
}

const admitAll: Admit = () => Promise.resolve();

/** The options (when the first argument is not a handler) and the handlers. */
function split(rest: readonly (RouteOptions | Middleware)[]): [RouteOptions, Middleware[]] {
  const [first, ...others] = rest;
  if (typeof first === 'function') return [{}, rest as Middleware[]];
  return [first ?? {}, others as Middleware[]];
}

/** Lower case without one trailing slash; undefined for a path that no route can match. */
function normalize(path: string): string | undefined {
  if (!ASCII.test(path)) return undefined;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.toLowerCase();
}

/** The handlers run in order, each given the next as `next`; the last one gets the router's `next`. */
function chainOf(handlers: readonly Middleware[]): Middleware {
  if (handlers.length === 0) throw new Error('a route needs a handler');
  if (handlers.length === 1) return handlers[0]!;
  const [first, ...rest] = handlers as [Middleware, ...Middleware[]];
  const tail = chainOf(rest);
  return (ctx, next) => first(ctx, () => Promise.resolve(tail(ctx, next)));
}
