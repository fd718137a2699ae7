/**
 * The MongoDB store (STOREFRONT_STORE=mongo): every storage port from @storefront/adapters-mongo,
 * all from one `createMongoAdapters()` call on the database named in MONGODB_URI (the driver's
 * default, `test`, when it names none). Nothing connects until the store is first resolved; the
 * client is closed when the container is unloaded.
 *
 * Both the client and the adapter set are built asynchronously (connecting, creating indexes), so
 * whatever depends on the store must first be resolved with `container.getAsync` (singletons are
 * cached after that), and the container unloaded with `unbindAllAsync`.
 */
import { createMongoAdapters, type MongoAdapters } from '@storefront/adapters-mongo';
import type { HealthProbe } from '@storefront/domain';
import { ContainerModule } from 'inversify';
import { MongoClient } from 'mongodb';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';

export interface MongoModuleOptions {
  /** How long an operation waits for a usable server before failing with `store_unavailable`. */
  readonly serverSelectionTimeoutMs?: number;
}

export function mongoModule(uri: string, options: MongoModuleOptions = {}): ContainerModule {
  return new ContainerModule(({ bind }) => {
    // The client itself is built synchronously and connects only when the adapters are first
    // resolved, so the container can always close it, even after a failed start.
    bind<MongoClient>(TYPES.MongoClient)
      .toResolvedValue(
        () => new MongoClient(uri, { appName: 'storefront', serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000 }),
      )
      .inSingletonScope()
      .onDeactivation(async (client) => {
        await client.close();
      });
    bind<MongoAdapters>(TYPES.MongoAdapters)
      .toResolvedValue(
        async (client: MongoClient, logger: Logger) => {
          // Connected here rather than by the first operation: the driver leaves a client whose
          // automatic first connect failed closed for good ("Topology is closed" on every later
          // operation), while an explicit connect() may be tried again. Inversify keeps a rejected
          // singleton, though: a container whose store failed to start is to be thrown away.
          await client.connect();
          const adapters = await createMongoAdapters({ db: client.db() });
          logger.info({ database: client.db().databaseName }, 'store: connected to MongoDB');
          return adapters;
        },
        [TYPES.MongoClient, TYPES.Logger],
      )
      .inSingletonScope();
    bindFactory(bind, TYPES.MenuRepository, [TYPES.MongoAdapters], (mongo) => mongo.menu);
    bindFactory(bind, TYPES.OrderRepository, [TYPES.MongoAdapters], (mongo) => mongo.orders);
    bindFactory(bind, TYPES.CustomerRepository, [TYPES.MongoAdapters], (mongo) => mongo.customers);
    bindFactory(bind, TYPES.SessionStore, [TYPES.MongoAdapters], (mongo) => mongo.sessions);
    bindFactory(bind, TYPES.StoreProbe, [TYPES.MongoAdapters], (mongo) => storeProbe(mongo.probes));
  });
}

function storeProbe(probes: readonly HealthProbe[]): HealthProbe {
  const probe = probes.find((candidate) => candidate.name === 'store');
  if (probe === undefined) throw new Error('the Mongo adapters have no store probe');
  return probe;
}
