/** The Koa app of @storefront/adapters-http, handed the Storefront and the logger. */
import { createHttpApp } from '@storefront/adapters-http';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';

/** Requests still running after this are answered 503 by the app (DECISIONS: request time-out 10 s). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** JSON bodies above this are refused with 413. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export function httpModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.HttpApp, [TYPES.Storefront, TYPES.Logger, TYPES.Config], (storefront, logger, config) =>
      createHttpApp({
        storefront,
        logger,
        options: { trustProxy: config.trustProxy, bodyLimitBytes: BODY_LIMIT_BYTES, requestTimeoutMs: REQUEST_TIMEOUT_MS },
      }),
    );
  });
}
