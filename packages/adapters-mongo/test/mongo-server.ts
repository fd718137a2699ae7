/**
 * A real MongoDB for the tests: MONGODB_URI when set (CI points it at a server) and it answers a
 * ping, else a throwaway `mongo:7` single-node replica set through testcontainers
 * (@testcontainers/mongodb) when a Docker engine is reachable (and MONGODB_URI is unset), else
 * null, and the suites skip with one loud line saying why. A replica set, so that the majority
 * reads and the duplicate-key races the tests meet are a real server's.
 *
 * Every suite gets a fresh database, dropped after it, on a client made with the production
 * settings (client-settings.ts: time-outs, majority journaled writes, primary and, on a replica
 * set, majority reads), with a time-out a loaded CI machine can meet.
 */
import { randomUUID } from 'node:crypto';
import { after, before } from 'mocha';
import { MongoClient, type Db } from 'mongodb';
import { deploymentOn, durableDb, mongoClientOptions } from '../src/client-settings.js';

export interface TestMongo {
  readonly uri: string;
  stop(): Promise<void>;
}

/**
 * Shared with packages/app/test/mongo-mode.ts (which usually probes first, as a root hook): one
 * probe and one loud line per run, whichever package asks first.
 */
const PROBE = Symbol.for('storefront.test.mongodb-probe');
const PROBE_TIMEOUT_MS = 5_000;

function probe(uri: string): Promise<string | null> {
  const global = globalThis as { [PROBE]?: Promise<string | null> };
  global[PROBE] ??= (async () => {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: PROBE_TIMEOUT_MS, connectTimeoutMS: PROBE_TIMEOUT_MS });
    try {
      await client.db('admin').command({ ping: 1 });
      return null;
    } catch (error) {
      const reason = `${(error as Error).name}: ${(error as Error).message.split('\n')[0]}`;
      const shown = uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
      console.warn(
        `\n  !!! SKIPPING MongoDB mode: MONGODB_URI=${shown} did not answer within ${PROBE_TIMEOUT_MS / 1000} s (${reason}). ` +
          'The end-to-end and reliability suites run on the memory store; the MongoDB adapter suites are skipped.\n',
      );
      return reason;
    } finally {
      await client.close().catch(() => undefined);
    }
  })();
  return global[PROBE];
}

export async function startTestMongo(): Promise<TestMongo | null> {
  const fromEnv = process.env['MONGODB_URI']?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    // Set but silent: skip (said once by the probe) rather than fail every test after a time-out.
    return (await probe(fromEnv)) === null ? { uri: fromEnv, stop: async () => undefined } : null;
  }
  try {
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    // Started with --replSet rs0 and initiated as a set of one member, its own primary.
    const container = await new MongoDBContainer('mongo:7').start();
    return {
      // The member's host name is the container's, unknown outside it: connect to the port directly.
      uri: `${container.getConnectionString()}/?directConnection=true`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    console.warn(
      `\n  !!! SKIPPING MongoDB tests: MONGODB_URI is not set and testcontainers could not start MongoDB (${(error as Error).message.split('\n')[0]}).\n`,
    );
    return null;
  }
}

/** MONGODB_TIMEOUT_MS of the tests' client: production's 2 s is too tight for a shared CI machine. */
const TEST_TIMEOUT_MS = 10_000;

// One server for the whole run, shared by every suite; the warning is printed once.
let server: Promise<TestMongo | null> | undefined;

after(async function () {
  this.timeout(60_000);
  await (await server)?.stop();
});

/**
 * Gives the calling suite a fresh database (`storefront_test_<random>`), or skips the suite when no
 * MongoDB can be had. Call it inside a `describe`; use the getter inside tests and hooks only.
 */
export function useTestDatabase(): () => Db {
  let client: MongoClient | undefined;
  let db: Db | undefined;
  before(async function () {
    this.timeout(120_000);
    const mongo = await (server ??= startTestMongo());
    if (mongo === null) return this.skip();
    client = new MongoClient(mongo.uri, mongoClientOptions(TEST_TIMEOUT_MS));
    await client.connect();
    ({ db } = durableDb(client, await deploymentOn(client), `storefront_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`));
  });
  after(async function () {
    this.timeout(60_000);
    try {
      await db?.dropDatabase();
    } finally {
      await client?.close();
    }
  });
  return () => {
    if (db === undefined) throw new Error('useTestDatabase: no database outside a test');
    return db;
  };
}
