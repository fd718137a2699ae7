/**
 * The MongoDB store (STOREFRONT_STORE=mongo): every storage port from @storefront/adapters-mongo on
 * the database named in MONGODB_URI. The connection is made in the background and retried until
 * MongoDB is up (see MongoStoreConnection), so the bindings stay synchronous; the connection is
 * closed when the container is unloaded.
 */
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import { MongoStoreConnection } from '../mongo-connection.js';
import { bindDeferredStore } from './deferred-store.js';

export function mongoModule(uri: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<MongoStoreConnection>(TYPES.MongoConnection)
      .toResolvedValue(
        (logger: Logger, config: StorefrontConfig) => new MongoStoreConnection(uri, logger, { timeoutMs: config.mongodbTimeoutMs }),
        [TYPES.Logger, TYPES.Config],
      )
      .inSingletonScope()
      .onDeactivation((connection) => connection.stop());
    bindDeferredStore(bind, TYPES.MongoConnection);
  });
}
