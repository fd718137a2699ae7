/**
 * The HTTP limits of DECISIONS ("Limits") and the server time-outs that enforce them, in one place:
 * the app passes overrides only (tests use short time-outs).
 */
export const HTTP_LIMITS = {
  /** JSON bodies above this are refused with 413. */
  bodyLimitBytes: 16 * 1024,
  /** A request still running after this is answered 503 (408 while its body is still arriving). */
  requestTimeoutMs: 10_000,
  /** The request line and headers; above, 431. */
  maxHeaderSize: 16 * 1024,
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
