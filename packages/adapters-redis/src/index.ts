/**
 * @storefront/adapters-redis: the RateLimiter port on Redis (a sliding window shared by every
 * instance), with an in-process fallback while Redis is unreachable; and the OrderEventLog port on
 * a Redis Stream, so that live order events cross instances.
 */
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limiter.js';
export { createRedisAdapters, type RedisAdapterOptions, type RedisAdapters } from './create-redis-adapters.js';
export { FallbackRateLimiter, type FallbackRateLimiterOptions, type RateLimitDecider } from './fallback-rate-limiter.js';
export { createRedisClient, type RedisClientOptions } from './redis-client.js';
export { SLIDING_WINDOW_LUA } from './sliding-window-script.js';
export { RedisOrderEventLog, type RedisOrderEventLogOptions } from './redis-order-event-log.js';
