/**
 * Starting and stopping one Storefront process: configuration → container → seed data → HTTP
 * server with hardened time-outs, and a graceful close that lets in-flight requests finish.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, Storefront } from '@storefront/domain';
import { DEFAULT_PASSWORD_RESET_URL } from '@storefront/domain';
import { createHttpServer, SERVER_TIMEOUTS, type HttpApp, type ServerTimeouts } from '@storefront/adapters-http';
import type { Container } from 'inversify';
import { resolve } from './binding.js';
import { ConfigError, loadConfig, type Env, type StorefrontConfig } from './config.js';
import { createContainer } from './container.js';
import type { StreamTimings } from './modules/http-module.js';
import { TYPES } from './identifiers.js';
import { createLogger, type Logger } from './logger.js';
import { closeMetricsServer, createMetricsServer, METRICS_PATH } from './metrics/metrics-server.js';
import { PrometheusMetrics } from './metrics/prometheus-metrics.js';
import { startPaymentUpkeep, type PaymentUpkeep } from './payment-upkeep.js';
import { seedDatabase } from './seed.js';

export interface RunningStorefront {
  /** e.g. `http://127.0.0.1:41234`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** e.g. `http://127.0.0.1:9464/metrics` with METRICS_PORT; undefined (nothing listens) without. */
  readonly metricsUrl: string | undefined;
  readonly storefront: Storefront;
  /** The time-outs the HTTP server was given. */
  readonly timeouts: Readonly<ServerTimeouts>;
  /**
   * Resolves once the database serves and holds its start-up data: at once with the memory one;
   * with MongoDB once connected, indexed and seeded. Rejects with a ConfigError when the database can
   * never serve (MongoDB refuses it for good: MONGODB_URI; a bad STOREFRONT_MENU_FILE), else with
   * the seeding error. Already logged; `pnpm start` exits 1 on a ConfigError.
   */
  readonly ready: Promise<void>;
  /** Stops accepting connections, lets in-flight requests finish, resolves when all are closed. */
  close(): Promise<void>;
}

/** The server time-outs, in milliseconds (the adapter's SERVER_TIMEOUTS unless overridden). */
export type { ServerTimeouts } from '@storefront/adapters-http';

export interface StartOptions {
  /** Where log lines go; default stdout (or pino-pretty with LOG_PRETTY). */
  readonly logger?: Logger;
  /** Overrides of the HTTP server time-outs (tests use short ones); default the adapter's SERVER_TIMEOUTS. */
  readonly timeouts?: Partial<ServerTimeouts>;
  /**
   * The domain's clock (token expiry, rate-limit windows, idempotency locks, the status cache);
   * default the system clock. Tests pass a FakeClock to move time instead of sleeping. Redis's
   * limiter keeps Redis TIME, and Node's timers (HTTP time-outs) are not moved by it.
   */
  readonly clock?: Clock;
  /** Live stream timings (ping and revalidation periods); default the adapter's STREAM_LIMITS. */
  readonly streams?: StreamTimings;
}

export async function startStorefront(env: Env = process.env, options: StartOptions = {}): Promise<RunningStorefront> {
  const config = loadConfig(env);
  const logger = options.logger ?? createLogger(config);
  // A registry of this start's own: several services in one process (tests) never share one.
  const metrics = config.metrics === undefined ? undefined : new PrometheusMetrics();
  const container = createContainer(config, logger, {
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.streams === undefined ? {} : { streams: options.streams }),
    ...(metrics === undefined ? {} : { metrics }),
  });
  // What a failed start calls to release what it opened (the Redis, MongoDB and SMTP clients, the
  // relay, a bound port), or an embedding process would linger: the container until `stop` exists.
  let release = (): Promise<void> => unload(container, logger);
  try {
    const storefront = resolve(container, TYPES.Storefront);
    const crypto = resolve(container, TYPES.CryptoAdapters);
    const httpApp = resolve(container, TYPES.HttpApp);
    const timeouts: ServerTimeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
    const server = createHttpServer(httpApp, timeouts);
    const shutdown = gracefulShutdown(server, httpApp, config.shutdownTimeoutSeconds * 1000, logger);
    const webhookQueue = resolve(container, TYPES.WebhookDeliveryQueue);
    const clock = resolve(container, TYPES.Clock);
    metrics?.watch({
      loginHashing: () => crypto.hasher.stats,
      openStreams: () => httpApp.openStreams,
      webhookBacklog: async () => {
        const { pending, oldestPendingAt } = await webhookQueue.stats();
        const oldestPendingSeconds = oldestPendingAt === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldestPendingAt.getTime()) / 1000);
        return { pending, oldestPendingSeconds };
      },
    });
    const metricsServer = metrics && createMetricsServer(metrics, (error) => logger.error({ err: error }, 'metrics could not be collected'));
    let closing: Promise<void> | undefined;
    let paymentUpkeep: PaymentUpkeep | undefined;
    const stop = (): Promise<void> =>
      (closing ??= shutdown()
        .then(() => closeMetricsServer(metricsServer))
        .then(() => storefront.orderEvents.stop())
        // After the relay (which may still enqueue) and before the adapters close: the attempts in
        // flight are recorded; leased ones not yet sent are taken over when their lease runs out.
        .then(() => storefront.webhookDispatcher?.stop())
        // A sweep in flight is then waited for with the other background tasks.
        .then(() => paymentUpkeep?.stop())
        // Its sampling timer would otherwise outlive the instance (tests start many in one process).
        .then(() => resolve(container, TYPES.ServingPressure).stop())
        .then(() => settleBackground(storefront, Math.min(BACKGROUND_SETTLE_MS, config.shutdownTimeoutSeconds * 1000), logger))
        .then(() => unload(container, logger)));
    release = stop;

    await crypto.tokens.ready();
    // Requests are served only once the store is prepared (DECISIONS "Ready means ready"): until the
    // gate opens, /api/status reports the store down and every other route answers 503 + Retry-After.
    const gate = resolve(container, TYPES.StartGate);
    let ready = Promise.resolve();
    if (config.database === 'memory') {
      await seedDatabase(storefront, config, logger);
      gate.open();
    } else {
      // A persistent database is connected and seeded in the background, without holding up the start.
      const seed = config.demoData || config.menuFile !== undefined;
      ready = resolve(container, TYPES.DatabaseReady)()
        .then(() => (seed ? seedDatabase(storefront, config, logger) : undefined))
        .then(() => gate.open());
      ready.catch((error: unknown) => {
        if (closing === undefined) logger.error({ err: error }, 'the store cannot be prepared');
      });
    }
    await storefront.login.warmUp();
    // Publishing order events: at once after each change, and a sweep for what failed (once the database serves).
    void ready.then(() => {
      if (closing !== undefined) return;
      storefront.orderEvents.start();
      // Webhook deliveries: what is pending in the store (left by a restart included) is sent now.
      storefront.webhookDispatcher?.start();
      // Payments without news settled by reading the provider; processed events kept 30 days.
      paymentUpkeep = startPaymentUpkeep(storefront, resolve(container, TYPES.ProviderEvents), clock, logger);
    }, () => undefined);

    await listen(server, config.port, config.host);
    const { port } = server.address() as AddressInfo;
    const url = `http://${urlHost(config.host)}:${port}`;
    let metricsUrl: string | undefined;
    if (metricsServer !== undefined && config.metrics !== undefined) {
      const { host } = config.metrics;
      await listen(metricsServer, config.metrics.port, host, METRICS_VARIABLES);
      metricsUrl = `http://${urlHost(host)}:${(metricsServer.address() as AddressInfo).port}${METRICS_PATH}`;
    }
    announce(container, config, logger, { port, url, metricsUrl });
    return { url, port, metricsUrl, storefront, timeouts, ready, close: stop };
  } catch (error) {
    await release().catch((closeError: unknown) => logger.error({ err: closeError }, 'a failed start could not release everything it opened'));
    throw error;
  }
}

/** The start-up line, and the mail settings that need a word (the mail server is checked, not awaited). */
function announce(container: Container, config: StorefrontConfig, logger: Logger, at: { port: number; url: string; metricsUrl: string | undefined }): void {
  const { port, url, metricsUrl } = at;
  const mailers = resolve(container, TYPES.Mailers);
  // The mailer's own description: SMTP_URL with its password masked.
  const mail = mailers?.describe ?? 'none (SMTP_URL is not set: reset emails are not sent)';
  logger.info({ ...describe(config, port, url), mail, ...(metricsUrl === undefined ? {} : { metrics_url: metricsUrl }) }, 'storefront started');
  if (mailers === undefined) logger.warn({}, 'SMTP_URL is not set: password reset emails cannot be sent (each request is logged as an error)');
  // One connection and login to the mail server, not awaited: a wrong SMTP_URL password or an
  // unreachable relay shows in the log at start, not at a customer's first reset.
  mailers?.verify?.().then(
    () => logger.info({ mail }, 'mail server reachable'),
    (error: unknown) => logger.warn({ err: error, mail }, 'mail server check failed at start: reset emails will be retried and may not arrive'),
  );
  if (config.mail.smtpUrl !== undefined && config.mail.passwordResetUrl === undefined) {
    logger.warn({ link: DEFAULT_PASSWORD_RESET_URL }, 'PASSWORD_RESET_URL is not set: reset emails link to the demo page; set it to your front end\'s reset page');
  }
}

function describe(config: StorefrontConfig, port: number, url: string): Record<string, unknown> {
  return {
    mode: config.demoData ? 'demo' : 'standard',
    port,
    url,
    database: config.database,
    limiter: config.redisUrl === undefined ? 'memory' : 'redis',
    rate_limit: `${config.rateLimit.max}/${config.rateLimit.windowSeconds}s`,
    login_rate_limit: `${config.loginRateLimit.max}/${config.loginRateLimit.windowSeconds}s`,
    login_email_rate_limit: `${config.loginEmailRateLimitMax}/${config.loginRateLimit.windowSeconds}s`,
    register_rate_limit: `${config.registerRateLimit.max}/${config.registerRateLimit.windowSeconds}s`,
    status_rate_limit: `${config.statusRateLimit.max}/${config.statusRateLimit.windowSeconds}s`,
    // Which address the per-IP limits see: a wrong hop count is the usual proxy mistake.
    trust_proxy_hops: config.trustProxy ? config.trustProxyHops : 0,
    scrypt_log_n: config.scrypt.logN,
    // Which provider and where, never its keys.
    payments: config.payments.provider,
    ...(config.payments.provider === 'stripe' && { stripe_api: config.payments.stripe.apiBase, payment_window_minutes: config.payments.windowMs / 60_000 }),
  };
}

/** The variables that set an address, named when it cannot be bound. */
const API_VARIABLES = { port: 'PORT', host: 'HOST' } as const;
const METRICS_VARIABLES = { port: 'METRICS_PORT', host: 'METRICS_HOST' } as const;

/** An address that cannot be bound is a configuration problem: say which variable to change. */
function listen(server: http.Server, port: number, host: string, names: { readonly port: string; readonly host: string } = API_VARIABLES): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
        reject(ConfigError.of(names.port, `${names.port} ${port} cannot be used on ${names.host} ${host}: ${error.code === 'EADDRINUSE' ? 'the address is already in use' : 'permission denied'}`));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(ConfigError.of(names.host, `${names.host} ${host} is not an address of this machine`));
      } else {
        reject(error);
      }
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePromise();
    });
  });
}

/** An IPv6 literal needs brackets in a URL; a wildcard address is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Graceful close: stop accepting connections, end the open event streams (they would hold the
 * close for the whole time-out), close idle keep-alive ones, answer the requests in flight with
 * `Connection: close`, and after `timeoutMs` cut whatever is still open.
 */
function gracefulShutdown(server: http.Server, httpApp: HttpApp, timeoutMs: number, logger: Logger): () => Promise<void> {
  let closing = false;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
    res.on('close', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return () =>
    new Promise<void>((resolvePromise) => {
      closing = true;
      logger.info({}, 'storefront stopping');
      const deadline = setTimeout(() => {
        logger.warn({ timeout_seconds: timeoutMs / 1000 }, 'shutdown time-out: closing the remaining connections');
        server.closeAllConnections();
      }, timeoutMs);
      deadline.unref();
      server.close(() => {
        clearTimeout(deadline);
        resolvePromise();
      });
      httpApp.endStreams();
      server.closeIdleConnections();
    });
}

/**
 * How long a shutdown waits for work requests started and left running (the reset emails: a
 * look-up, a token, an SMTP delivery) before the mailer and the database are closed under it. An SMTP
 * retry can wait for a minute; a stop cannot.
 */
const BACKGROUND_SETTLE_MS = 5_000;

/** Waits up to `ms` for the background tasks; what is still running then is cut by the close (and logged as failed). */
async function settleBackground(storefront: Storefront, ms: number, logger: Logger): Promise<void> {
  if (storefront.background.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((done) => {
    timer = setTimeout(() => done(true), ms);
  });
  const late = await Promise.race([storefront.background.settled().then(() => false), timedOut]);
  clearTimeout(timer);
  if (late) logger.warn({ pending: storefront.background.size, waited_ms: ms }, 'shutdown: background tasks (reset emails) still running; closing the mailer and the store under them');
}

async function unload(container: Container, logger: Logger): Promise<void> {
  await container.unbindAllAsync();
  logger.info({}, 'storefront stopped');
  logger.flush();
}
