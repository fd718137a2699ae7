/**
 * How often and how fast a transient delivery failure is retried: a bounded number of attempts,
 * exponential backoff with "equal jitter" (half the step fixed, half random), so that instances
 * that failed together do not all come back at the same instant, yet never retry at once.
 */

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly attempts: number;
  /** Step before the 2nd attempt; doubled for each further one. */
  readonly baseDelayMs: number;
  /** Upper bound of a step. */
  readonly maxDelayMs: number;
}

/** 5 attempts; waits of 2–4 s, 4–8 s, 8–16 s, 15–30 s: the last attempt 29–58 s after the first. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 4_000, maxDelayMs: 30_000 };

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new Error('retry attempts must be an integer of at least 1');
  if (!(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) {
    throw new Error('retry delays must satisfy 0 <= baseDelayMs <= maxDelayMs');
  }
  return policy;
}

/** The wait after failed attempt number `attempt` (1-based); `random` returns a number in [0, 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}
