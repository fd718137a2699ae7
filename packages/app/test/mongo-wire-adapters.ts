/**
 * The MongoDB adapters on the wire stand-in as production makes them: the client options and the
 * durable database handle of adapters-mongo's client-settings.ts (time-outs, majority writes, and on a replica set
 * majority reads), so that what reaches the wire is what a real server would receive.
 */
import { createMongoAdapters, DEFAULT_MONGODB_TIMEOUT_MS, deploymentOn, durableDb, mongoClientOptions, type MongoAdapters } from '@storefront/adapters-mongo';
import { MongoClient } from 'mongodb';
import { afterEach } from 'mocha';
import { startFakeMongod, type FakeMongod, type FakeMongodOptions } from './mongo-wire-fake.js';

export interface WireAdapters {
  readonly client: MongoClient;
  readonly adapters: MongoAdapters;
}

/** `timeoutMs`: MONGODB_TIMEOUT_MS (production's default: 2 s). */
export async function productionAdaptersOn(fake: FakeMongod, database: string, timeoutMs = DEFAULT_MONGODB_TIMEOUT_MS): Promise<WireAdapters> {
  const client = new MongoClient(fake.uri(database), mongoClientOptions(timeoutMs));
  try {
    await client.connect();
    const { db } = durableDb(client, await deploymentOn(client));
    return { client, adapters: await createMongoAdapters({ db }) };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Stand-ins started by a test and the adapters' clients on them, all closed after each test:
 * `fake()` starts one, `adapters(fake, database)` starts the adapters on it as production does.
 */
export function useStandIns(): {
  fake(options?: FakeMongodOptions): Promise<FakeMongod>;
  adapters(fake: FakeMongod, database: string, timeoutMs?: number): Promise<MongoAdapters>;
} {
  const fakes: FakeMongod[] = [];
  const clients: MongoClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    for (const fake of fakes.splice(0)) await fake.close();
  });
  return {
    fake: async (options) => {
      const fake = await startFakeMongod(options);
      fakes.push(fake);
      return fake;
    },
    adapters: async (fake, database, timeoutMs) => {
      const started = await productionAdaptersOn(fake, database, timeoutMs);
      clients.push(started.client);
      return started.adapters;
    },
  };
}
