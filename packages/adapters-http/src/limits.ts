/**
 * The HTTP limits of DECISIONS ("Limits") and the server time-outs that enforce them, in one place:
 * the app passes overrides only (tests use short time-outs).
 */
export const HTTP_LIMITS = {
  /** JSON bodies above this are refused with 413. */
  bodyLimitBytes: 16 * 1024,
  /** The payment provider's signed events, read raw (Stripe's are far smaller; DECISIONS "Payments"). */
  providerEventBodyLimitBytes: 256 * 1024,
  /** A request still running after this is answered 503 (408 while its body is still arriving). */
  requestTimeoutMs: 10_000,
  /** The request line and headers; above, 431. */
  maxHeaderSize: 16 * 1024,
  /**
   * Issues listed in an error's `details`; a last entry counts the rest (a body of 1,500 unknown
   * fields would otherwise be answered with 74 KB).
   */
  maxDetails: 20,
} as const;

/**
 * Node's HTTP server time-outs. A client that has not sent its whole header block within
 * `headersTimeout`, or its whole request within `requestTimeout`, gets a 408 and its connection is
 * closed (slowloris). Node checks those two every `connectionsCheckingInterval`; its own default of
 * 30 s would let a slow client hold a connection for up to 40 s.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 10_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

export type ServerTimeouts = { -readonly [K in keyof typeof SERVER_TIMEOUTS]: number };

/**
 * The live order streams (Server-Sent Events) of DECISIONS "Live order updates". Every open stream
 * is visited once per `pingMs` by one ticker per app (sse/event-streams.ts), in slots, so that the
 * pings of many streams are spread over the period instead of written at once.
 */
export const STREAM_LIMITS = {
  /** Open streams per caller (customer) on one instance; the next one is refused with 429. */
  perCaller: 5,
  /**
   * Open streams on one instance, all callers together; the next one is refused with 503 (the
   * client tries another instance or later). The default is what one process can hold and feed
   * within its targets (docs/performance.md).
   */
  perInstance: 10_000,
  /**
   * What one stream may leave unsent in the process (bytes its client has not read yet). Past it
   * the stream is cut; its client reconnects with Last-Event-ID and misses nothing. 1 MiB is about
   * 130 of the largest `order.placed` events: far more than a reader that only paused falls behind.
   */
  maxBufferedBytes: 1024 * 1024,
  /** What a 429 for too many open streams tells the client to wait, in seconds. */
  retryAfterSeconds: 5,
  /**
   * A `: ping` comment per stream this often: each visit of the ticker pings and checks the token
   * again. DECISIONS promises a ping at least every 15 s.
   */
  pingMs: 10_000,
  /**
   * Each stream's access token is authenticated again this often (a revocation elsewhere: another
   * instance's logout, refresh-token reuse, an account disabled or a staff role taken away by the
   * CLI); rounded to whole ping periods, at least one. DECISIONS ends such a stream within 15 s:
   * the first check that starts after the revocation sees it, at most one period later, and a check
   * takes at most the store's time-out (PG_TIMEOUT_MS, 2 s by default): 10 + 2 s, with 3 s to
   * spare for a late timer. A check still running at the next visit (a store slower than the
   * period) is not doubled: that store is failing, and a failing store ends nothing.
   */
  revalidateMs: 10_000,
  /** The reconnection delay the stream asks of the client (`retry:`). */
  retryMs: 3_000,
} as const;
