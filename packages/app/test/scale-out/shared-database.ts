/**
 * One database for several instances, as a deployment behind a load balancer shares it: the run's
 * persistent database (PostgreSQL in postgres mode, else MongoDB when MONGODB_URI answers), or none
 * (the memory adapters cannot be shared between processes).
 */
import { randomBytes } from 'node:crypto';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { createTestDatabase } from '@storefront/testing';
import { MongoClient } from 'mongodb';
import { probeTestMongo, redactUri, withDatabase } from '../mongo-mode.js';
import { postgresMode } from '../postgres-mode.js';

export interface SharedDatabase {
  /** "PostgreSQL" or "MongoDB". */
  readonly name: string;
  /** The env every instance gets: the database, its URL, one signing key (a token from one instance works on the other). */
  readonly env: Readonly<Record<string, string>>;
  /** Where, without a password, for the test's log. */
  readonly shown: string;
  drop(): Promise<void>;
}

/** The run's shared database, or why there is none (said by the caller when it skips). */
export async function sharedDatabase(prefix: string): Promise<SharedDatabase | string> {
  const signing = { TOKEN_SECRET_KEY: generateSigningKey() };
  if (postgresMode()) {
    const database = await createTestDatabase(prefix);
    return {
      name: 'PostgreSQL',
      env: { ...signing, STOREFRONT_STORE: 'postgres', DATABASE_URL: database.url },
      shown: database.url.replace(/:[^:@/]*@/, ':***@'),
      drop: () => database.drop(),
    };
  }
  const uri = process.env['MONGODB_URI']?.trim();
  if (uri === undefined || uri === '') return 'neither STOREFRONT_TEST_STORE=postgres (the second pass of the README\'s test command) nor MONGODB_URI is set';
  // A URI that does not answer was already reported, loudly and once, by the probe.
  const unreachable = await probeTestMongo(uri);
  if (unreachable !== null) return `MONGODB_URI does not answer (${unreachable})`;
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
  return {
    name: 'MongoDB',
    env: { ...signing, STOREFRONT_STORE: 'mongo', MONGODB_URI: withDatabase(uri, name) },
    shown: redactUri(withDatabase(uri, name)),
    drop: async () => {
      try {
        await admin.db(name).dropDatabase();
      } finally {
        await admin.close();
      }
    },
  };
}
