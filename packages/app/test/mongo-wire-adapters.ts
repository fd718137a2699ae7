/**
 * The MongoDB adapters on the wire stand-in as production makes them: the client options and the
 * durable database handle of adapters-mongo's client-settings.ts (time-outs, majority writes, and on a replica set
 * majority reads), so that what reaches the wire is what a real server would receive.
 */
import { createMongoAdapters, deploymentOn, durableDb, mongoClientOptions, type MongoAdapters } from '@storefront/adapters-mongo';
import { MongoClient } from 'mongodb';
import type { FakeMongod } from './mongo-wire-fake.js';

export interface WireAdapters {
  readonly client: MongoClient;
  readonly adapters: MongoAdapters;
}

export async function productionAdaptersOn(fake: FakeMongod, database: string): Promise<WireAdapters> {
  const client = new MongoClient(fake.uri(database), mongoClientOptions(2_000));
  await client.connect();
  const { db } = durableDb(client, await deploymentOn(client));
  return { client, adapters: await createMongoAdapters({ db }) };
}
