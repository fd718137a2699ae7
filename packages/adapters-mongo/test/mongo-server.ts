/**
 * A real MongoDB for the tests: MONGODB_URI when set (CI points it at a server), else a throwaway
 * `mongo:7` container through testcontainers when a Docker engine is reachable, else null, and the
 * suites skip with one loud line saying why. Every suite gets a fresh database, dropped after it.
 */
import { randomUUID } from 'node:crypto';
import { after, before } from 'mocha';
import { MongoClient, type Db } from 'mongodb';

export interface TestMongo {
  readonly uri: string;
  stop(): Promise<void>;
}

export async function startTestMongo(): Promise<TestMongo | null> {
  const fromEnv = process.env['MONGODB_URI'];
  if (fromEnv !== undefined && fromEnv !== '') return { uri: fromEnv, stop: async () => undefined };
  try {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
    return {
      uri: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`,
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
    client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 10_000 });
    db = client.db(`storefront_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`);
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
