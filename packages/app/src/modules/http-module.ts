/** The Koa app of @storefront/adapters-http, handed the Storefront and the logger. */
import { createHttpApp } from '@storefront/adapters-http';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import { createAccessLog } from '../logger.js';

/** Requests still running after this are answered 503 (408 while the body is still arriving). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** JSON bodies above this are refused with 413. */
export const BODY_LIMIT_BYTES = 16 * 1024;

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
          bodyLimitBytes: BODY_LIMIT_BYTES,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
        },
      }),
    );
  });
}
