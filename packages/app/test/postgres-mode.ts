/**
 * The postgres mode of the end-to-end, reliability and scale-out suites: with
 * STOREFRONT_TEST_STORE=postgres, every server they start runs STOREFRONT_STORE=postgres on a
 * throwaway database of its own (CREATE DATABASE on the server of DATABASE_URL, default the
 * machine's postgres://postgres@127.0.0.1:5432/test), seeded with the demo data and dropped when the
 * server closes. The README's test command runs those suites a second time this way.
 *
 * Asked for explicitly, so a PostgreSQL that does not answer fails the run (mongo mode skips: there
 * is no MongoDB on these machines). The bookkeeping (memory-only suites, the tally) is mongo-mode.ts's.
 */
import { generateSigningKey } from '@storefront/adapters-crypto';
import { createTestDatabase, postgresUnavailableReason, testDatabaseBaseUrl } from '@storefront/testing';
import type { Env } from './mongo-mode.js';

const DATABASES = ['memory', 'postgres'] as const;

/** Whether this run is in postgres mode; a value other than memory or postgres is a mistake, said at once. */
export function postgresMode(): boolean {
  const value = process.env['STOREFRONT_TEST_STORE']?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'memory') return false;
  if (value === 'postgres') return true;
  throw new Error(`STOREFRONT_TEST_STORE must be one of ${DATABASES.join(', ')}, got ${JSON.stringify(value)}`);
}

/** The server's URL without its password, for the run's summary. */
export function postgresServerShown(): string {
  return testDatabaseBaseUrl().replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** Fails the run at once when postgres mode was asked for and PostgreSQL does not answer. */
export async function requireTestPostgres(): Promise<void> {
  const reason = await postgresUnavailableReason();
  if (reason !== null) throw new Error(`STOREFRONT_TEST_STORE=postgres, but PostgreSQL at ${postgresServerShown()} does not answer: ${reason}`);
}

export interface ServerDatabase {
  /** The env of a server on this database: the caller's, with the store, URL, demo data and a signing key. */
  apply(env: Env): Record<string, string | undefined>;
  /** Drops the database (once). */
  release(): Promise<void>;
}

/** A fresh database for one server (or for several instances that share it, as a deployment does). */
export async function postgresDatabase(prefix = 'storefront_e2e'): Promise<ServerDatabase> {
  const database = await createTestDatabase(prefix);
  return {
    apply: (callerEnv) => ({
      STOREFRONT_DEMO_DATA: 'true',
      TOKEN_SECRET_KEY: generateSigningKey(),
      // A variable the caller left undefined does not unset ours.
      ...Object.fromEntries(Object.entries(callerEnv).filter(([, value]) => value !== undefined)),
      STOREFRONT_STORE: 'postgres',
      DATABASE_URL: database.url,
    }),
    release: () => database.drop(),
  };
}
