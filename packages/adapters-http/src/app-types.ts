/** The types of the adapter's public surface: what createHttpApp takes and returns. */
import type { Storefront } from '@storefront/domain';
import type { ProviderEventInput } from '@storefront/domain/adapter-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStreamsOptions } from './sse/event-streams.js';
import type { ApiReference } from './routes/docs.js';
import type { KitchenPage } from './routes/kitchen-page.js';

/** The subset of pino's API the adapter logs through. */
export interface HttpLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /** Optional: what is worth a line only when looking closely (a client that left mid-answer). */
  debug?(fields: Record<string, unknown>, message: string): void;
  /**
   * Optional, as pino has it: a logger writing to the same place with other options. The default
   * access log writes through `child({}, { redact: [] })`: its fixed fields hold no secret, and
   * pino's redaction paths cost more than the rest of the line.
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

/** One answered request, as an observer (metrics) sees it: labels of bounded cardinality only. */
export interface RequestSample {
  /** The matched route's path template as registered (`/api/orders/:order_id`); undefined when no route matched (404, 405, OPTIONS). */
  readonly route: string | undefined;
  readonly method: string;
  readonly status: number;
  /** Time to answer, in milliseconds; a stream's is until it ended (its access line's). */
  readonly durationMs: number;
}

/** Told what the app answers, for metrics; how it is recorded is the embedder's business. */
export interface HttpObserver {
  /** Once per answered request, where its access-log line is written. */
  request(sample: RequestSample): void;
  /** Each failure answered 500 and logged as `request failed`: the error as thrown (a domain error's code says which dependency failed). */
  failure?(error: unknown): void;
}

export interface HttpAppOptions {
  /** Largest accepted JSON body. Default HTTP_LIMITS.bodyLimitBytes (16 KiB). */
  readonly bodyLimitBytes?: number | undefined;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). Default false. */
  readonly trustProxy?: boolean | undefined;
  /**
   * With `trustProxy`: how many proxies in front of the app append to X-Forwarded-For (integer
   * ≥ 1). Default 1. The client is the entry the outermost of them appended, the `hops`-th from
   * the right; entries further left were written by the client and are ignored. A header with
   * fewer entries than `hops` gives its leftmost entry (the request came through fewer proxies);
   * none, the socket's address. This is Koa's `maxIpsCount`.
   */
  readonly trustProxyHops?: number | undefined;
  /** Default HTTP_LIMITS.requestTimeoutMs (10 s). */
  readonly requestTimeoutMs?: number | undefined;
  /** The live order streams' timing and per-caller limit; defaults STREAM_LIMITS (tests use short periods). */
  readonly streams?: EventStreamsOptions | undefined;
  /** Told of every answered request and every unexpected failure (metrics). Default: none. */
  readonly observer?: HttpObserver | undefined;
  /**
   * The API reference: Swagger UI at GET /docs on this document, the document at GET
   * /openapi.json (routes/docs.ts). Default: none, and those paths are unknown (404).
   */
  readonly apiReference?: ApiReference | undefined;
  /** The kitchen display at GET /kitchen (routes/kitchen-page.ts). Default: none (404). */
  readonly kitchenPage?: KitchenPage | undefined;
  /**
   * Whether the instance can do its whole job yet (start-up done). Until it returns true, every
   * request but GET /api/status is answered 503 `service_unavailable` with `Retry-After: 1`; once
   * true it is not asked again. Default: ready from the start.
   */
  readonly ready?: (() => boolean) | undefined;
}

/**
 * The payment provider's signed events (`POST /api/payments/stripe/webhook`): the app wires the
 * provider's own verifier (@storefront/adapters-stripe). Absent: payments are off and the path is
 * unknown (404).
 */
export interface PaymentEventsIntake {
  /**
   * The event read from the raw body once its signature verifies (the body is read by nothing
   * else first), or null when it does not (missing, malformed, forged, stale: 400
   * `invalid_signature`, nothing changes).
   */
  verify(rawBody: Buffer, signature: string | undefined): ProviderEventInput | null;
}

export interface HttpAppDependencies {
  readonly storefront: Storefront;
  /** Card payments' events; absent when payments are off. */
  readonly paymentEvents?: PaymentEventsIntake | undefined;
  readonly logger: HttpLogger;
  /** Default: the access log of access-log.ts through `logger.info`. */
  readonly accessLog?: AccessLog | undefined;
  readonly options?: HttpAppOptions | undefined;
}

/** One route the app serves: a method and a path as the route modules wrote it (`/api/orders`). */
export interface RouteEntry {
  readonly method: string;
  readonly path: string;
}

/** The HTTP adapter as the app sees it: no Koa in sight. */
export interface HttpApp {
  /** The Node request listener. */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Every route of the interface as registered (`HEAD`, implied by `GET`, is not listed); the API
   * reference's routes (/docs, /openapi.json) are not part of the interface and are not listed.
   */
  routes(): RouteEntry[];
  /** Ends every open stream (on shutdown: a server closing must not wait for them). */
  endStreams(): void;
  /** The request id an answer carries: `incoming` when sane, else a new one (also for answers made outside the app). */
  requestId(incoming: string | string[] | undefined): string;
  /** The streams open now (live order events), read when metrics are scraped. */
  readonly openStreams: number;
}
