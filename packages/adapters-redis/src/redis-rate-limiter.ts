/**
 * RateLimiter on a shared Redis: one EVALSHA round trip per decision (the script is loaded once by
 * ioredis `defineCommand`, which falls back to EVAL after a Redis restart flushed the script cache).
 */
import type { RateLimiter, RateLimitPolicy } from '@storefront/domain';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';
import { bucketWidthMs } from '@storefront/adapter-support';
import type { Redis } from 'ioredis';
import { SLIDING_WINDOW_LUA } from './sliding-window-script.js';

interface SlidingWindowCommand {
  storefrontSlidingWindow(key: string, limit: number, windowMs: number, widthMs: number, consume: 0 | 1): Promise<[number, number, number, number]>;
}

export interface RedisRateLimiterOptions {
  /** Prefix of every key this limiter writes. Default `storefront:rl:`. */
  readonly keyPrefix?: string;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis & SlidingWindowCommand;
  private readonly prefix: string;

  /** The client is the caller's: this limiter never closes it. */
  constructor(client: Redis, options: RedisRateLimiterOptions = {}) {
    if (typeof (client as Partial<SlidingWindowCommand>).storefrontSlidingWindow !== 'function') {
      client.defineCommand('storefrontSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    }
    this.redis = client as Redis & SlidingWindowCommand;
    this.prefix = options.keyPrefix ?? 'storefront:rl:';
  }

  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide(key, policy, 1);
  }

  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide(key, policy, 0);
  }

  private async decide(key: string, policy: RateLimitPolicy, consume: 0 | 1): Promise<RateLimitDecision> {
    const [allowed, remaining, resetMs, retryAfterMs] = await this.redis.storefrontSlidingWindow(
      `${this.prefix}${policy.name}:${key}`,
      policy.limit,
      policy.windowSeconds * 1000,
      bucketWidthMs(policy),
      consume,
    );
    return { allowed: allowed === 1, limit: policy.limit, remaining, resetMs, retryAfterMs };
  }
}
