/**
 * The one factory of this package: the Redis limiter, guarded by an in-process fallback of the
 * same algorithm, the order event log on a Redis Stream, and a health probe for /api/status. The
 * client is the caller's: never closed here (`events.close()` closes only the log's own reader).
 */
import type { Clock, HealthProbe, RateLimiter, RateLimitPolicy } from '@storefront/domain';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';
import type { Redis } from 'ioredis';
import { FallbackRateLimiter } from './fallback-rate-limiter.js';
import { RedisOrderEventLog, type RedisOrderEventLogOptions } from './redis-order-event-log.js';
import { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limiter.js';

export interface RedisAdapterOptions extends RedisRateLimiterOptions {
  readonly client: Redis;
  /** Decides while Redis is unreachable: the in-process limiter in production. */
  readonly fallback: RateLimiter;
  /** Times the retries of Redis while degraded (at most one a second). Default: the system clock. */
  readonly clock?: Clock;
  readonly onDegraded?: (error: unknown) => void;
  readonly onRestored?: () => void;
  /** Every failed limiter command (the fallback decided instead); `onDegraded` hears only an outage's first. */
  readonly onRedisError?: (error: unknown) => void;
  /** Each `consume` decision and who made it: Redis, or the fallback while Redis fails (metrics). */
  readonly onDecision?: (decision: RateLimitDecision, policy: RateLimitPolicy, by: 'redis' | 'fallback') => void;
  /** The event log's options (its client is this one). */
  readonly events?: Omit<RedisOrderEventLogOptions, 'client'>;
}

export interface RedisAdapters {
  readonly limiter: FallbackRateLimiter;
  readonly probes: readonly HealthProbe[];
  readonly events: RedisOrderEventLog;
}

export function createRedisAdapters(options: RedisAdapterOptions): RedisAdapters {
  const { client, fallback, clock, onDegraded, onRestored, onRedisError, onDecision, events, ...limiterOptions } = options;
  const limiter = new FallbackRateLimiter(new RedisRateLimiter(client, limiterOptions), fallback, {
    ...(clock && { clock }),
    ...(onDegraded && { onDegraded }),
    ...(onRestored && { onRestored }),
    ...(onRedisError && { onPrimaryError: onRedisError }),
    ...(onDecision && { onDecision: (decision, policy, by) => onDecision(decision, policy, by === 'primary' ? 'redis' : 'fallback') }),
  });
  const probe: HealthProbe = {
    name: 'rate_limiter',
    check: async () => {
      await client.ping();
    },
  };
  return { limiter, probes: [probe], events: new RedisOrderEventLog({ ...events, client }) };
}
