/**
 * Assembles the Koa app from two middleware: the lifecycle (request id, time allowance, errors →
 * replies, the one write of the reply, access log) → the router, which matches the route, runs
 * admission (caller identification, rate limit by the route's quota, bad-credential refusal) and
 * then the route's handlers (or 404/405). Handlers answer through `send` and `setHeader` of
 * reply.ts, not `ctx.body` and `ctx.set`: the reply is written in one piece at the end.
 */
import type { Storefront } from '@storefront/domain';
import Koa from 'koa';
import compose from 'koa-compose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { admission } from './middleware/admission.js';
import { jsonBody } from './middleware/json-body.js';
import { lifecycle } from './middleware/lifecycle.js';
import { Router } from './router.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { menuRoutes } from './routes/menu.js';
import { orderRoutes } from './routes/orders.js';

/** The subset of pino's API the adapter logs through. */
export interface HttpLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /**
   * Optional, as pino has it: a logger writing to the same place with other options. The access
   * log line is written through `child({}, { redact: [] })` (see middleware/errors.ts).
   */
  child?(bindings: Record<string, unknown>, options: { redact: string[] }): HttpLogger;
}

/** What the access log records of each answered request. None of it is a secret. */
export interface AccessEntry {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Time to answer, in milliseconds, to a tenth. */
  readonly ms: number;
}

/** Writes one access-log line per answered request. */
export type AccessLog = (entry: AccessEntry) => void;

export interface HttpAppOptions {
  /** Largest accepted JSON body. Default 16 KiB. */
  readonly bodyLimitBytes?: number;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). Default false. */
  readonly trustProxy?: boolean;
  /**
   * With `trustProxy`: how many proxies in front of the app append to X-Forwarded-For (integer
   * ≥ 1). Default 1. The client is the entry the outermost of them appended, the `hops`-th from
   * the right; entries further left were written by the client and are ignored. A header with
   * fewer entries than `hops` gives its leftmost entry (the request came through fewer proxies);
   * none, the socket's address. This is Koa's `maxIpsCount`.
   */
  readonly trustProxyHops?: number;
  /** A request still running after this is answered 408 (body still arriving) or 503. Default 10 s. */
  readonly requestTimeoutMs?: number;
}

export interface HttpAppDependencies {
  readonly storefront: Storefront;
  readonly logger: HttpLogger;
  /**
   * Default: an info line through `logger` (`msg: "request"`, fields req_id, method, path, status,
   * ms). The app passes a writer that formats the same line itself (see packages/app/src/logger.ts).
   */
  readonly accessLog?: AccessLog | undefined;
  readonly options?: HttpAppOptions;
}

/** One route the app serves: a method and a path as the route modules wrote it (`/api/orders`). */
export interface RouteEntry {
  readonly method: string;
  readonly path: string;
}

const routeTables = new WeakMap<Koa, readonly RouteEntry[]>();

/**
 * The routes of an app made by `createHttpApp`, as registered by the route modules (the API
 * document's drift test compares them with docs/openapi.yaml). `HEAD`, implied by `GET`, is not listed.
 */
export function routeTable(app: Koa): RouteEntry[] {
  const table = routeTables.get(app);
  if (table === undefined) throw new TypeError('routeTable: not an app made by createHttpApp');
  return [...table];
}

export function createHttpApp(deps: HttpAppDependencies): Koa {
  const { storefront, logger, options = {} } = deps;
  const accessLog = deps.accessLog ?? accessLogThrough(logger);
  const hops = options.trustProxyHops ?? 1;
  if (!Number.isSafeInteger(hops) || hops < 1) throw new RangeError(`trustProxyHops must be an integer ≥ 1, got ${hops}`);
  const app = new Koa({ proxy: options.trustProxy ?? false, maxIpsCount: hops });
  app.silent = true;
  app.on('error', (error: unknown) => logger.error({ err: error }, 'response stream failed'));

  const router = new Router();
  const body = jsonBody(options.bodyLimitBytes ?? 16 * 1024);
  menuRoutes(router, storefront);
  orderRoutes(router, storefront, body);
  authRoutes(router, storefront, body);
  accountRoutes(router, storefront);
  routeTables.set(app, router.table());

  app.use(lifecycle(logger, accessLog, options.requestTimeoutMs ?? 10_000));
  app.use(router.middleware(admission(storefront)));
  return app;
}

/**
 * The access log through the logger. The line has fixed fields, none of them a secret, so it is
 * written without the logger's redaction paths: pino runs its wildcard paths over every field of
 * every line, which costs more than the rest of the line. Every other line keeps the redaction.
 */
function accessLogThrough(logger: HttpLogger): AccessLog {
  const log = logger.child?.({}, { redact: [] }) ?? logger;
  return (entry) =>
    log.info({ req_id: entry.requestId, method: entry.method, path: entry.path, status: entry.status, ms: entry.ms }, 'request');
}

/**
 * The Node request listener of an app made by `createHttpApp`: what `app.callback()` does, without
 * the two things Koa adds to every request that this adapter never uses: an on-finished hook on the
 * response (there to tear down a streamed body when the client goes; replies here are never
 * streamed) and Koa's `respond` (the lifecycle middleware writes every reply itself, and sets
 * `ctx.respond = false`). They cost about 1.5 µs of the ~14 µs of JavaScript a request takes
 * (docs/performance.md). An error escaping the middleware still goes to `ctx.onerror`, as in Koa.
 * Middleware added with `app.use` after this is called is not seen, as with `app.callback()`.
 */
export function requestListener(app: Koa): (req: IncomingMessage, res: ServerResponse) => void {
  if (!routeTables.has(app)) throw new TypeError('requestListener: not an app made by createHttpApp');
  const handle = compose(app.middleware);
  return (req, res) => {
    const ctx = app.createContext(req, res);
    handle(ctx).catch((error: unknown) => ctx.onerror(error as Error));
  };
}
