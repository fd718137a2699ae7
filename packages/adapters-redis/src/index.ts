/**
 * @storefront/adapters-redis: the RateLimiter port on Redis (a sliding window shared by every
 * instance), with an in-process fallback while Redis is unreachable.
 */
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limiter.js';
export { createRedisAdapters, type RedisAdapterOptions, type RedisAdapters } from './create-redis-adapters.js';
export { createRedisClient, type RedisClientOptions } from './redis-client.js';
export { SLIDING_WINDOW_LUA } from './sliding-window-script.js';
