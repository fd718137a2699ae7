/** Configuration, logger and clock: what every other module may depend on. */
import { systemClock, type Clock } from '@storefront/domain';
import { ContainerModule } from 'inversify';
import { bindValue } from '../binding.js';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';

export function settingsModule(config: StorefrontConfig, logger: Logger, clock: Clock = systemClock): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindValue(bind, TYPES.Config, config);
    bindValue(bind, TYPES.Logger, logger);
    bindValue(bind, TYPES.Clock, clock);
  });
}
