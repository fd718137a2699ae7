/** The HTTP app of @storefront/adapters-http, handed the Storefront, the logger and the proxy settings (limits are the adapter's). */
import { createHttpApp } from '@storefront/adapters-http';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import { createAccessLog } from '../logger.js';

export function httpModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.HttpApp, [TYPES.Storefront, TYPES.Logger, TYPES.Config], (storefront, logger, config) =>
      createHttpApp({
        storefront,
        logger,
        accessLog: createAccessLog(logger),
        options: {
          trustProxy: config.trustProxy,
          trustProxyHops: config.trustProxyHops,
          streams: { perCaller: config.streamsPerCaller },
        },
      }),
    );
  });
}
