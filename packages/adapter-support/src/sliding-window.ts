/**
 * The sliding-window algorithm every RateLimiter adapter implements (in-process here, in Lua for
 * Redis), so that a fallback limiter decides exactly like the primary one. The window is cut into a
 * fixed number of buckets: memory per caller stays bounded whatever the limit, no window holds more
 * than `limit` allowed requests, and the `reset` reported is computed from the buckets the next
 * decision reads, so it holds (docs/decisions.md, "Rate limiting: a bucketed sliding window").
 */
import type { RateLimitPolicy } from '@storefront/domain';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';

/** Buckets a window is cut into. */
export const SLIDING_WINDOW_BUCKETS = 60;

/** Bucket state of one caller: `[bucketIndex, count, latestRequestMs]` in ascending bucket order. */
export type WindowBuckets = Array<[bucket: number, count: number, latestMs: number]>;

/** Width of one bucket of `policy`'s window, in milliseconds (at least 1). */
export function bucketWidthMs(policy: RateLimitPolicy): number {
  return Math.max(1, Math.ceil((policy.windowSeconds * 1000) / SLIDING_WINDOW_BUCKETS));
}

/**
 * Decides one request against `buckets` at `nowMs`, pruning expired buckets and, when `consume` is
 * true and the request is allowed, counting it. Mutates `buckets`.
 */
export function decideSlidingWindow(
  buckets: WindowBuckets,
  policy: RateLimitPolicy,
  nowMs: number,
  consume: boolean,
): RateLimitDecision {
  const windowMs = policy.windowSeconds * 1000;

  let firstLive = 0;
  while (firstLive < buckets.length && buckets[firstLive]![2] + windowMs <= nowMs) firstLive++;
  if (firstLive > 0) buckets.splice(0, firstLive);

  // Indexed loops: this runs on every request, with up to 61 buckets.
  let used = 0;
  for (let i = 0; i < buckets.length; i++) used += buckets[i]![1];

  const allowed = used < policy.limit;
  if (allowed && consume) {
    const current = Math.floor(nowMs / bucketWidthMs(policy));
    const last = buckets[buckets.length - 1];
    if (last !== undefined && last[0] >= current) {
      last[1] += 1;
      last[2] = Math.max(last[2], nowMs);
    } else {
      buckets.push([current, 1, nowMs]);
    }
    used += 1;
  }
  return summarize(buckets, policy, nowMs, used, allowed, windowMs);
}

function summarize(
  buckets: WindowBuckets,
  policy: RateLimitPolicy,
  nowMs: number,
  used: number,
  allowed: boolean,
  windowMs: number,
): RateLimitDecision {
  const remaining = Math.max(0, policy.limit - used);
  const newest = buckets[buckets.length - 1];
  const resetMs = newest === undefined ? 0 : Math.max(0, newest[2] + windowMs - nowMs);

  let retryAfterMs = 0;
  if (remaining === 0) {
    // Requests free up oldest bucket first; find the bucket whose expiry brings `used` below the limit.
    let left = used;
    for (let i = 0; i < buckets.length; i++) {
      const [, count, latestMs] = buckets[i]!;
      left -= count;
      if (left < policy.limit) {
        retryAfterMs = Math.max(0, latestMs + windowMs - nowMs);
        break;
      }
    }
  }
  return { allowed, limit: policy.limit, remaining, resetMs, retryAfterMs };
}

