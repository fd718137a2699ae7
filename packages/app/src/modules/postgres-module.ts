/**
 * The PostgreSQL store (STOREFRONT_STORE=postgres): every storage port from
 * @storefront/adapters-postgres on the database named in DATABASE_URL. The schema is migrated and
 * the adapters made in the background, retried until PostgreSQL is up (see
 * PostgresStoreConnection); unloading the container drains and ends the pool.
 */
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import { PostgresStoreConnection } from '../postgres-connection.js';
import { bindDeferredStore } from './deferred-store.js';

export function postgresModule(url: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<PostgresStoreConnection>(TYPES.PostgresConnection)
      .toResolvedValue(
        (logger: Logger, config: StorefrontConfig) => new PostgresStoreConnection({ url, poolMax: config.pgPoolMax, timeoutMs: config.pgTimeoutMs }, logger),
        [TYPES.Logger, TYPES.Config],
      )
      .inSingletonScope()
      .onDeactivation((connection) => connection.stop());
    bindDeferredStore(bind, TYPES.PostgresConnection);
  });
}
