/** A named quota: at most `limit` requests in any sliding window of `windowSeconds`. */
export interface RateLimitPolicy {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The answer of a RateLimiter for one request (or one peek). */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests still allowed right now, after this one if it was counted. */
  readonly remaining: number;
  /** Milliseconds until the full quota is back. */
  readonly resetMs: number;
  /** Milliseconds until the next request would be allowed; 0 while `remaining` > 0. */
  readonly retryAfterMs: number;
}

/**
 * A sliding-window limiter. `consume` counts the request only when it is allowed (a refused
 * request does not count); `peek` decides nothing and counts nothing.
 */
export interface RateLimiter {
  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>;
  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>;
}
