/**
 * The Inversify container of a Storefront process: settings, one adapter set per port family
 * (chosen by STOREFRONT_STORE), crypto, payments (STOREFRONT_PAYMENTS), the domain and the HTTP app. Only this package knows
 * Inversify; every other package is wired through plain factories.
 */
import type { Clock } from '@storefront/domain';
import { Container, type ContainerModule } from 'inversify';
import { ConfigError, type StorefrontConfig } from './config.js';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import { coreModule } from './modules/core-module.js';
import { cryptoModule } from './modules/crypto-module.js';
import { httpModule, type StreamTimings } from './modules/http-module.js';
import { mailModule } from './modules/mail-module.js';
import { memoryLimiterModule, memoryModule } from './modules/memory-module.js';
import { mongoModule } from './modules/mongo-module.js';
import { paymentsModule } from './modules/payments-module.js';
import { postgresModule } from './modules/postgres-module.js';
import { redisLimiterModule } from './modules/redis-module.js';
import { settingsModule } from './modules/settings-module.js';
import { webhooksModule } from './modules/webhooks-module.js';

export interface ContainerOverrides {
  /** Replaces the system clock everywhere (tests). */
  readonly clock?: Clock;
  /** Live stream timings (ping and revalidation periods) instead of the adapter's (tests). */
  readonly streams?: StreamTimings;
  /** Where the adapters report to (METRICS_PORT); default none, and nothing is recorded. */
  readonly metrics?: ServiceMetrics;
}

export function databaseModule(config: StorefrontConfig): ContainerModule {
  switch (config.database) {
    case 'memory':
      return memoryModule();
    case 'mongo':
      if (config.mongodbUri === undefined) throw ConfigError.of('MONGODB_URI', 'MONGODB_URI is required with STOREFRONT_STORE=mongo');
      return mongoModule(config.mongodbUri);
    case 'postgres':
      if (config.databaseUrl === undefined) throw ConfigError.of('DATABASE_URL', 'DATABASE_URL is required with STOREFRONT_STORE=postgres');
      return postgresModule(config.databaseUrl);
  }
}

export function limiterModule(config: StorefrontConfig): ContainerModule {
  return config.redisUrl === undefined ? memoryLimiterModule() : redisLimiterModule(config.redisUrl, config.redisCommandTimeoutMs);
}

export function createContainer(config: StorefrontConfig, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(settingsModule(config, logger, overrides.clock, overrides.metrics), databaseModule(config), limiterModule(config), cryptoModule(), mailModule(), webhooksModule(), paymentsModule(), coreModule(), httpModule(overrides.streams));
  return container;
}
