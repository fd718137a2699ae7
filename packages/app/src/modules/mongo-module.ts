/**
 * The MongoDB database (STOREFRONT_STORE=mongo): every storage port from @storefront/adapters-mongo on
 * the database named in MONGODB_URI. The connection is made in the background and retried until
 * MongoDB is up (see MongoDatabaseConnection), so the bindings stay synchronous; the connection is
 * closed when the container is unloaded.
 */
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import { MongoDatabaseConnection } from '../mongo-connection.js';
import { bindDeferredDatabase } from './deferred-database.js';

export function mongoModule(uri: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<MongoDatabaseConnection>(TYPES.MongoConnection)
      .toResolvedValue(
        (logger: Logger, config: StorefrontConfig) => new MongoDatabaseConnection(uri, logger, { timeoutMs: config.mongodbTimeoutMs }),
        [TYPES.Logger, TYPES.Config],
      )
      .inSingletonScope()
      .onDeactivation((connection) => connection.stop());
    bindDeferredDatabase(bind, TYPES.MongoConnection);
    bindFactory(bind, TYPES.KeyedOrderWrites, [], () => null);
  });
}
