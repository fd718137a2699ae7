/**
 * A Redis client set to fail fast: no offline queue and a short command time-out, so a slow or
 * absent Redis costs a request a few milliseconds (then the fallback decides) instead of stalling it.
 */
import { Redis } from 'ioredis';

export interface RedisClientOptions {
  /** Milliseconds a command may take before it fails. Default 100. */
  readonly commandTimeoutMs?: number;
}

export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? 100,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    lazyConnect: false,
    // Reconnect forever, backing off to 2 s, so the limiter returns to Redis when it is back.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
}
