/**
 * A RateLimiter that prefers a shared primary (Redis) and, when it fails, decides with an
 * in-process fallback of the same algorithm: degraded, never open, and no request fails because the
 * limiter's store failed. While degraded the primary is tried again at most once per
 * `retryIntervalMs`; the first success switches back.
 */
import type { Clock, RateLimiter, RateLimitPolicy } from '@storefront/domain';
import { systemClock, type RateLimitDecision } from '@storefront/domain/adapter-kit';

export interface FallbackRateLimiterOptions {
  /** While degraded, how often the primary is tried again. Default 1000 ms. */
  readonly retryIntervalMs?: number;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Called once when the primary starts failing. */
  readonly onDegraded?: (error: unknown) => void;
  /** Called once when the primary answers again. */
  readonly onRestored?: () => void;
  /** Called on every failure of the primary (`onDegraded` hears only the first of an outage): metrics. */
  readonly onPrimaryError?: (error: unknown) => void;
  /** Told of each `consume` decision and which limiter made it (a peek decides nothing): metrics. */
  readonly onDecision?: (decision: RateLimitDecision, policy: RateLimitPolicy, by: RateLimitDecider) => void;
}

/** Which limiter decided: the shared primary, or the in-process fallback while the primary fails. */
export type RateLimitDecider = 'primary' | 'fallback';

/** `primary` (shared) while it answers, else `fallback` (in-process, same algorithm). */
export class FallbackRateLimiter implements RateLimiter {
  private degraded = false;
  private nextAttemptAt = 0;
  private readonly retryIntervalMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly options: FallbackRateLimiterOptions = {},
  ) {
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
  }

  /** True while decisions come from the fallback. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  async consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    const { onDecision } = this.options;
    if (onDecision === undefined) return this.decide((limiter) => limiter.consume(key, policy));
    let by: RateLimitDecider = 'primary';
    const decision = await this.decide((limiter) => {
      by = limiter === this.primary ? 'primary' : 'fallback';
      return limiter.consume(key, policy);
    });
    onDecision(decision, policy, by);
    return decision;
  }

  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide((limiter) => limiter.peek(key, policy));
  }

  private async decide(run: (limiter: RateLimiter) => Promise<RateLimitDecision>): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    if (this.degraded && now < this.nextAttemptAt) return run(this.fallback);
    try {
      const decision = await run(this.primary);
      if (this.degraded) {
        this.degraded = false;
        this.options.onRestored?.();
      }
      return decision;
    } catch (error) {
      this.options.onPrimaryError?.(error);
      if (!this.degraded) {
        this.degraded = true;
        this.options.onDegraded?.(error);
      }
      this.nextAttemptAt = now + this.retryIntervalMs;
      return run(this.fallback);
    }
  }
}
