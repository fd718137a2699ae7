/**
 * Assembles the Koa app: request id → error handler (and access log) → caller identification →
 * rate limit → bad-credential refusal → time-out → routes (404/405). The order matters: the
 * rate limit needs to know the caller, and a bad token still spends quota before it is refused.
 */
import type { Storefront } from '@storefront/domain';
import Koa from 'koa';
import { setHeader } from './headers.js';
import { identifyCaller, refuseBadCredentials } from './middleware/authenticate.js';
import { errorHandler } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { timeout } from './middleware/timeout.js';
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

export interface HttpAppOptions {
  /** Largest accepted JSON body. Default 16 KiB. */
  readonly bodyLimitBytes?: number;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). Default false. */
  readonly trustProxy?: boolean;
  /** A request still being handled after this is answered 503. Default 10 s. */
  readonly requestTimeoutMs?: number;
}

export interface HttpAppDependencies {
  readonly storefront: Storefront;
  readonly logger: HttpLogger;
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
  const app = new Koa({ proxy: options.trustProxy ?? false });
  app.silent = true;
  app.on('error', (error: unknown) => logger.error({ err: error }, 'response stream failed'));

  const router = new Router();
  const body = jsonBody(options.bodyLimitBytes ?? 16 * 1024);
  menuRoutes(router, storefront);
  orderRoutes(router, storefront, body);
  authRoutes(router, storefront, body);
  accountRoutes(router, storefront);
  routeTables.set(app, router.table());

  app.use(requestId());
  app.use(errorHandler(logger));
  app.use((ctx, next) => {
    setHeader(ctx, 'X-Content-Type-Options', 'nosniff');
    return next();
  });
  app.use(identifyCaller(storefront.authenticate));
  app.use(rateLimit(storefront.checkRateLimit, storefront.getRateLimitStatus));
  app.use(refuseBadCredentials());
  app.use(timeout(options.requestTimeoutMs ?? 10_000));
  app.use(router.middleware());
  return app;
}
