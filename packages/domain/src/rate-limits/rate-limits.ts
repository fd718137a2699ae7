/** Quotas as the domain tells them: whose, how much is left, and the refusal when none is. */
import { DomainError } from '../shared/errors.js';
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from './rate-limiter.js';

/** Who a quota belongs to: the customer when a valid token is present, else the client address. */
export type RateLimitScope = 'customer' | 'ip';

/** Whose quota: a scope and an id within it (customer id, or client address). */
export interface RateLimitSubject {
  readonly scope: RateLimitScope;
  readonly id: string;
  /**
   * A quota kept apart for one resource (e.g. one polling endpoint), so that the same caller
   * under the same policy has one count per resource. Absent: the caller's one quota.
   */
  readonly resource?: string;
}

/** A quota as a client is told it, in whole seconds. */
export interface RateLimitStatus {
  readonly limit: number;
  readonly remaining: number;
  readonly window: number;
  /** Seconds until the full quota is back. */
  readonly reset: number;
  /** Seconds until the next request is allowed; 0 while remaining > 0. */
  readonly retryAfter: number;
  readonly scope: RateLimitScope;
}

export function keyOf(subject: RateLimitSubject): string {
  return subject.resource === undefined ? `${subject.scope}:${subject.id}` : `${subject.resource}:${subject.scope}:${subject.id}`;
}

export function toStatus(decision: RateLimitDecision, policy: RateLimitPolicy, scope: RateLimitScope): RateLimitStatus {
  return {
    limit: decision.limit,
    remaining: decision.remaining,
    window: policy.windowSeconds,
    reset: toWholeSeconds(decision.resetMs),
    retryAfter: decision.remaining > 0 ? 0 : Math.max(1, toWholeSeconds(decision.retryAfterMs)),
    scope,
  };
}

/** `rate_limited`, with the status so that the caller can tell the client when to come back. */
export class RateLimitedError extends DomainError {
  constructor(readonly status: RateLimitStatus) {
    super('rate_limited', 'Too many requests; retry later.', { retryAfterSeconds: status.retryAfter });
  }
}

/**
 * Spends one unit of `key`'s quota under `policy`, or refuses with `rate_limited` (and when to
 * retry) once it is spent: the per-client and per-email limits of logins, sign-ups and resets.
 */
export async function refuseWhenLimited(limiter: RateLimiter, key: string, policy: RateLimitPolicy, message: string): Promise<void> {
  const decision = await limiter.consume(key, policy);
  if (!decision.allowed) {
    throw new DomainError('rate_limited', message, { retryAfterSeconds: Math.max(1, toWholeSeconds(decision.retryAfterMs)) });
  }
}

/** Seconds for headers and bodies: whole seconds, rounded up so a client never retries too early. */
export function toWholeSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
