/**
 * The PostgreSQL database (STOREFRONT_STORE=postgres): every storage port from
 * @storefront/adapters-postgres on the database named in DATABASE_URL. The schema is migrated and
 * the adapters made in the background, retried until PostgreSQL is up (see
 * PostgresDatabaseConnection); unloading the container drains and ends the pool.
 */
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import { deferredPort } from '../mongo-connection.js';
import type { Logger } from '../logger.js';
import { PostgresDatabaseConnection } from '../postgres-connection.js';
import { bindDeferredDatabase } from './deferred-database.js';

export function postgresModule(url: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<PostgresDatabaseConnection>(TYPES.PostgresConnection)
      .toResolvedValue(
        (logger: Logger, config: StorefrontConfig) => new PostgresDatabaseConnection({ url, poolMax: config.pgPoolMax, timeoutMs: config.pgTimeoutMs }, logger),
        [TYPES.Logger, TYPES.Config],
      )
      .inSingletonScope()
      .onDeactivation((connection) => connection.stop());
    bindDeferredDatabase(bind, TYPES.PostgresConnection);
    // A fresh key's claim, order and completion in one statement.
    bindFactory(bind, TYPES.KeyedOrderWrites, [TYPES.PostgresConnection], (c) => deferredPort(() => c.require().keyedOrderWrites!, { placeFresh: true }));
  });
}
