/**
 * Routing on a fixed set of literal paths: one map lookup per request instead of a regular
 * expression per route, and handler chains composed once at start instead of per request. Matching
 * is what @koa/router did with its defaults (case-insensitive, an optional trailing slash, no
 * decoding); GET routes also answer HEAD. A known path with another method is 405 with `Allow`
 * (OPTIONS: 204 with `Allow`); an unknown path falls through to the 404 of the error handler.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from './problem.js';
import { replyOf } from './reply.js';

interface Route {
  readonly handlers: Map<string, Middleware>;
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

  get(path: string, ...handlers: Middleware[]): this {
    return this.add(['HEAD', 'GET'], path, handlers);
  }

  post(path: string, ...handlers: Middleware[]): this {
    return this.add(['POST'], path, handlers);
  }

  middleware(): Middleware {
    return (ctx, next) => {
      const route = this.find(ctx.path);
      if (route === undefined) return next();
      const handler = route.handlers.get(ctx.method);
      if (handler !== undefined) return handler(ctx, next);
      if (ctx.method === 'OPTIONS') {
        const reply = replyOf(ctx);
        reply.set('Allow', route.allow);
        reply.send(204);
        return Promise.resolve();
      }
      throw new HttpProblem(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${route.allow}.`, undefined, { Allow: route.allow });
    };
  }

  private add(methods: readonly string[], path: string, handlers: readonly Middleware[]): this {
    const key = normalize(path);
    if (key === undefined || key !== path) throw new Error(`route paths are lower-case ASCII without a trailing slash: ${path}`);
    let route = this.routes.get(key);
    if (route === undefined) {
      route = { handlers: new Map(), allow: '' };
      this.routes.set(key, route);
    }
    this.entries.push({ method: methods[methods.length - 1]!, path });
    const chain = chainOf(handlers);
    for (const method of methods) {
      if (route.handlers.has(method)) throw new Error(`${method} ${path} is routed twice`);
      route.handlers.set(method, chain);
    }
    route.allow = [...route.handlers.keys()].join(', ');
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
