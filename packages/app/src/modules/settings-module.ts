/** Configuration, logger, clock and metrics: what every other module may depend on. */
import { type Clock } from '@storefront/domain';
import { systemClock } from '@storefront/domain/adapter-kit';
import { ContainerModule } from 'inversify';
import { bindValue } from '../binding.js';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

export function settingsModule(config: StorefrontConfig, logger: Logger, clock: Clock = systemClock, metrics?: ServiceMetrics): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindValue(bind, TYPES.Config, config);
    bindValue(bind, TYPES.Logger, logger);
    bindValue(bind, TYPES.Clock, clock);
    bindValue(bind, TYPES.Metrics, metrics);
  });
}
