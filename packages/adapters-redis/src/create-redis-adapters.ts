/**
 * The one factory of this package: the Redis limiter, guarded by an in-process fallback of the
 * same algorithm, and a health probe for /api/status. The client is the caller's: never closed here.
 */
import type { Clock, HealthProbe, RateLimiter } from '@storefront/domain';
import { FallbackRateLimiter } from '@storefront/domain';
import type { Redis } from 'ioredis';
import { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limiter.js';

export interface RedisAdapterOptions extends RedisRateLimiterOptions {
  readonly client: Redis;
  /** Decides while Redis is unreachable: the in-process limiter in production. */
  readonly fallback: RateLimiter;
  /** Times the retries of Redis while degraded (at most one a second). Default: the system clock. */
  readonly clock?: Clock;
  readonly onDegraded?: (error: unknown) => void;
  readonly onRestored?: () => void;
}

export interface RedisAdapters {
  readonly limiter: FallbackRateLimiter;
  readonly probes: readonly HealthProbe[];
}

export function createRedisAdapters(options: RedisAdapterOptions): RedisAdapters {
  const { client, fallback, clock, onDegraded, onRestored, ...limiterOptions } = options;
  const limiter = new FallbackRateLimiter(new RedisRateLimiter(client, limiterOptions), fallback, {
    ...(clock && { clock }),
    ...(onDegraded && { onDegraded }),
    ...(onRestored && { onRestored }),
  });
  const probe: HealthProbe = {
    name: 'rate_limiter',
    check: async () => {
      await client.ping();
    },
  };
  return { limiter, probes: [probe] };
}
