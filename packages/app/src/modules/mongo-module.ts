/**
 * The MongoDB store (STOREFRONT_STORE=mongo): every storage port from @storefront/adapters-mongo on
 * the database named in MONGODB_URI. The connection is made in the background and retried until
 * MongoDB is up (see MongoStoreConnection), so the bindings stay synchronous; the connection is
 * closed when the container is unloaded.
 */
import type { HealthProbe } from '@storefront/domain';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';
import { deferredPort, MongoStoreConnection } from '../mongo-connection.js';

export function mongoModule(uri: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<MongoStoreConnection>(TYPES.MongoConnection)
      .toResolvedValue(
        (logger: Logger, config: StorefrontConfig) => new MongoStoreConnection(uri, logger, { timeoutMs: config.mongodbTimeoutMs }),
        [TYPES.Logger, TYPES.Config],
      )
      .inSingletonScope()
      .onDeactivation((connection) => connection.stop());
    bindFactory(bind, TYPES.StoreReady, [TYPES.MongoConnection], (connection) => async () => {
      await connection.ready();
    });
    bindFactory(bind, TYPES.MenuRepository, [TYPES.MongoConnection], (c) => deferredPort(() => c.require().menu, { list: true, findByIds: true, upsertByName: true, setAvailability: true, revision: true }));
    bindFactory(bind, TYPES.OrderRepository, [TYPES.MongoConnection], (c) =>
      deferredPort(() => c.require().orders, {
        claimIdempotencyKey: true,
        takeOverIdempotencyKey: true,
        completeIdempotencyKey: true,
        abandonIdempotencyKey: true,
        releaseIdempotencyKey: true,
        insert: true,
        findOrder: true,
        listByCustomer: true,
        findById: true,
        applyMove: true,
        eraseDeliveryAddresses: true,
        listByStatus: true,
        listUnpublished: true,
        markPublished: true,
      }),
    );
    bindFactory(bind, TYPES.CustomerRepository, [TYPES.MongoConnection], (c) =>
      deferredPort(() => c.require().customers, {
        findByEmail: true,
        findById: true,
        create: true,
        setDisabled: true,
        setRole: true,
        updatePasswordHash: true,
        delete: true,
      }),
    );
    bindFactory(bind, TYPES.SessionStore, [TYPES.MongoConnection], (c) =>
      deferredPort(() => c.require().sessions, { create: true, findById: true, rotate: true, revoke: true, revokeAllOf: true }),
    );
    bindFactory(bind, TYPES.PasswordResetTokenStore, [TYPES.MongoConnection], (c) =>
      deferredPort(() => c.require().resetTokens, { save: true, find: true, consume: true, deleteAllOf: true }),
    );
    bindFactory(bind, TYPES.StoreStateRepository, [TYPES.MongoConnection], (c) =>
      deferredPort(() => c.require().storeState, { get: true, setAcceptingOrders: true }),
    );
    bindFactory(bind, TYPES.SlotPlaces, [TYPES.MongoConnection], (c) => deferredPort(() => c.require().slotPlaces, { take: true, release: true, taken: true }));
    bindFactory(bind, TYPES.StoreProbe, [TYPES.MongoConnection], (connection): HealthProbe => ({
      name: 'store',
      check: async () => connection.require().probes[0]!.check(),
    }));
  });
}
