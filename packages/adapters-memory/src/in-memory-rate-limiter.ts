/**
 * The in-process sliding-window limiter: the embedded default and the fallback when Redis is down,
 * deciding exactly like the Redis script (`decideSlidingWindow`, @storefront/adapter-support).
 * Memory is bounded: a caller whose buckets all expired is dropped, and past `maxKeys` the least
 * recently seen caller (kept to the second) is evicted, forgetting its count: hence a large cap.
 */
import type { Clock, RateLimiter, RateLimitPolicy } from '@storefront/domain';
import { decideSlidingWindow, type WindowBuckets } from '@storefront/adapter-support';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';
import { systemClock } from '@storefront/domain/adapter-kit';
import { SweepSchedule } from './sweep-schedule.js';

export interface InMemoryRateLimiterOptions {
  readonly clock?: Clock | undefined;
  /** Most callers tracked at once. Default 100,000 (a few MB at most). */
  readonly maxKeys?: number | undefined;
  /** Fewest decisions between two sweeps of expired callers. Default 1,000. */
  readonly sweepEvery?: number | undefined;
  /** Told of each `consume` decision (a peek decides nothing): metrics. Called before the promise settles, at no extra tick. */
  readonly onDecision?: ((decision: RateLimitDecision, policy: RateLimitPolicy) => void) | undefined;
}

interface CallerState {
  readonly buckets: WindowBuckets;
  /** When every bucket has expired, so the caller can be forgotten. */
  expiresAtMs: number;
  /** When the caller was last moved to the end of the map (the most recently seen end). */
  movedAtMs: number;
}

/** How often, at most, a caller's place in the least-recently-seen order is refreshed. */
const RECENCY_RESOLUTION_MS = 1_000;

export class InMemoryRateLimiter implements RateLimiter {
  // Map order is insertion order; re-inserting on every use makes the first entry the least recent.
  private readonly callers = new Map<string, CallerState>();
  private readonly clock: Clock;
  private readonly maxKeys: number;
  private readonly onDecision: ((decision: RateLimitDecision, policy: RateLimitPolicy) => void) | undefined;
  private readonly sweeps: SweepSchedule;

  constructor(options: InMemoryRateLimiterOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxKeys = Math.max(1, options.maxKeys ?? 100_000);
    this.sweeps = new SweepSchedule(Math.max(1, options.sweepEvery ?? 1_000));
    this.onDecision = options.onDecision;
  }

  /** Callers currently tracked. */
  get size(): number {
    return this.callers.size;
  }

  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.settled(key, policy, true);
  }

  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.settled(key, policy, false);
  }

  /**
   * The decision as a settled promise, a throw as a rejection (as from an async function). Not an
   * async function itself: this runs on every request, and an async frame costs more than the promise.
   */
  private settled(key: string, policy: RateLimitPolicy, consume: boolean): Promise<RateLimitDecision> {
    try {
      const decision = this.decide(key, policy, consume);
      if (consume) this.onDecision?.(decision, policy);
      return Promise.resolve(decision);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private decide(key: string, policy: RateLimitPolicy, consume: boolean): RateLimitDecision {
    const nowMs = this.clock.now().getTime();
    // Two policies never share counters, even if someone reuses a key across them.
    const id = `${policy.name.length}:${policy.name}:${key}`;
    const state = this.callers.get(id);
    // A peek at an unknown caller must not start tracking it.
    if (state === undefined && !consume) return decideSlidingWindow([], policy, nowMs, false);

    const caller = state ?? { buckets: [], expiresAtMs: 0, movedAtMs: nowMs };
    const decision = decideSlidingWindow(caller.buckets, policy, nowMs, consume);
    caller.expiresAtMs = nowMs + decision.resetMs;
    if (caller.buckets.length === 0) {
      this.callers.delete(id);
    } else if (state === undefined) {
      this.callers.set(id, caller);
    } else if (nowMs - caller.movedAtMs >= RECENCY_RESOLUTION_MS) {
      // Re-inserting moves the caller to the most recently seen end of the map.
      this.callers.delete(id);
      this.callers.set(id, caller);
      caller.movedAtMs = nowMs;
    }
    this.housekeep(nowMs);
    return decision;
  }

  private housekeep(nowMs: number): void {
    if (this.sweeps.wrote()) {
      for (const [id, caller] of this.callers) if (caller.expiresAtMs <= nowMs) this.callers.delete(id);
      this.sweeps.swept(this.callers.size);
    }
    while (this.callers.size > this.maxKeys) {
      const oldest = this.callers.keys().next();
      if (oldest.done === true) break;
      this.callers.delete(oldest.value);
    }
  }
}

