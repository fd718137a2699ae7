/**
 * The shared rate limiter (REDIS_URL): @storefront/adapters-redis on a fail-fast ioredis client,
 * with the in-process limiter deciding while Redis is unreachable (degraded, never open). The
 * client is closed when the container is unloaded.
 */
import { InMemoryRateLimiter } from '@storefront/adapters-memory';
import type { Clock } from '@storefront/domain';
import { createRedisAdapters, createRedisClient, type RedisAdapters, type RedisOrderEventLog } from '@storefront/adapters-redis';
import { ContainerModule } from 'inversify';
import type { Redis } from 'ioredis';
import { bindFactory } from '../binding.js';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

export function redisLimiterModule(redisUrl: string, commandTimeoutMs: number): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Redis>(TYPES.RedisClient)
      .toResolvedValue((logger: Logger, metrics: ServiceMetrics | undefined) => {
        const client = createRedisClient(redisUrl, { commandTimeoutMs });
        // ioredis reports every failed reconnect; the limiter logs the outage once instead (metrics count each).
        client.on('error', () => metrics?.redisError('client'));
        client.once('ready', () => logger.info({}, 'rate limiter: connected to Redis'));
        return client;
      }, [TYPES.Logger, TYPES.Metrics])
      .inSingletonScope()
      .onDeactivation(async (client) => {
        await client.quit().catch(() => client.disconnect());
      });
    let adapters: RedisAdapters | undefined;
    // The container's clock times the fallback and its retries of Redis (Redis decides on its own TIME).
    const build = (client: Redis, logger: Logger, config: StorefrontConfig, clock: Clock, metrics: ServiceMetrics | undefined): RedisAdapters =>
      (adapters ??= createRedisAdapters({
        client,
        fallback: new InMemoryRateLimiter({ clock }),
        clock,
        onDegraded: (error) => {
          metrics?.rateLimiterDegraded(true);
          logger.warn({ err: error }, 'rate limiter: Redis is unreachable; deciding in-process until it is back');
        },
        onRestored: () => {
          metrics?.rateLimiterDegraded(false);
          logger.info({ rate_limit: `${config.rateLimit.max}/${config.rateLimit.windowSeconds}s` }, 'rate limiter: Redis is back');
        },
        ...(metrics && {
          onRedisError: () => metrics.redisError('rate_limiter'),
          onDecision: (decision, policy, by) => metrics.rateLimitDecided(policy.name, decision.allowed, by),
        }),
        // The event window is timed by Redis TIME, the same for every instance.
        events: {
          onReaderError: (error) =>
            logger.warn({ err: error }, 'order events: Redis is unreachable; live streams resume from where they were once it is back'),
          onReaderRestored: () => logger.info({}, 'order events: reading from Redis again'),
        },
      }));
    bindFactory(bind, TYPES.RateLimiter, [TYPES.RedisClient, TYPES.Logger, TYPES.Config, TYPES.Clock, TYPES.Metrics], (client, logger, config, clock, metrics) =>
      build(client, logger, config, clock, metrics).limiter,
    );
    // The order events every instance shares (a Redis Stream); its reader connection is its own.
    bind<RedisOrderEventLog>(TYPES.OrderEventLog)
      .toResolvedValue(
        (client: Redis, logger: Logger, config: StorefrontConfig, clock: Clock, metrics: ServiceMetrics | undefined) => build(client, logger, config, clock, metrics).events,
        [TYPES.RedisClient, TYPES.Logger, TYPES.Config, TYPES.Clock, TYPES.Metrics],
      )
      .inSingletonScope()
      .onDeactivation((log) => log.close());
    bindFactory(bind, TYPES.LimiterProbe, [TYPES.RedisClient, TYPES.Logger, TYPES.Config, TYPES.Clock, TYPES.Metrics], (client, logger, config, clock, metrics) =>
      build(client, logger, config, clock, metrics).probes[0]!,
    );
  });
}
