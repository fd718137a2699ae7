/**
 * A throwaway database on the machine's PostgreSQL for one suite: `CREATE DATABASE <prefix>_<random>`
 * on the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), a pool on it,
 * and `drop()` (WITH (FORCE): connections a test left open do not keep it alive). When no
 * PostgreSQL answers, `usePostgresTestDatabase` skips the suite with one loud line saying why; a
 * quiet skip would read as a pass.
 */
import { randomBytes } from 'node:crypto';
import { after, before, type Context } from 'mocha';
import pg from 'pg';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const PROBE_TIMEOUT_MS = 5_000;

export interface TestDatabase {
  /** The new database's URL (credentials as in DATABASE_URL). */
  readonly url: string;
  readonly name: string;
  /** A pool on it, ended by `drop()`. */
  readonly pool: pg.Pool;
  drop(): Promise<void>;
}

/** The server to make databases on: DATABASE_URL, else the machine's default. */
export function testDatabaseBaseUrl(): string {
  const fromEnv = process.env['DATABASE_URL']?.trim();
  return fromEnv === undefined || fromEnv === '' ? DEFAULT_TEST_DATABASE_URL : fromEnv;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseBaseUrl(), connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates a fresh, empty database; `prefix` (letters, digits, _) names the suite in it. */
export async function createTestDatabase(prefix = 'storefront_test', poolOptions: pg.PoolConfig = {}): Promise<TestDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`bad test database prefix ${prefix}`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(testDatabaseBaseUrl(), name);
  const pool = new pg.Pool({ connectionString: url, max: 10, ...poolOptions });
  // An idle client that loses its connection (the database dropped, a server restart) must not crash the run.
  pool.on('error', () => undefined);
  let dropped = false;
  return {
    url,
    name,
    pool,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => undefined);
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Shared by every suite of a run: one probe, one loud line. */
const PROBE = Symbol.for('storefront.test.postgres-probe');

/** Null when the server of DATABASE_URL answers, else why not. */
export function postgresUnavailableReason(): Promise<string | null> {
  const global = globalThis as { [PROBE]?: Promise<string | null> };
  global[PROBE] ??= onServer(async (client) => {
    await client.query('SELECT 1');
    return null;
  }).catch((error: unknown) => {
    const reason = `${(error as Error).name}: ${(error as Error).message.split('\n')[0]}`;
    const shown = testDatabaseBaseUrl().replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
    console.warn(`\n  !!! SKIPPING PostgreSQL suites: DATABASE_URL=${shown} did not answer (${reason}).\n`);
    return reason;
  });
  return global[PROBE];
}

/** In a `before` hook (`this`): a fresh database, or the suite skipped loudly without PostgreSQL. */
export async function createTestDatabaseOrSkip(context: Context, prefix?: string, poolOptions?: pg.PoolConfig): Promise<TestDatabase> {
  if ((await postgresUnavailableReason()) !== null) context.skip();
  return createTestDatabase(prefix, poolOptions);
}

/**
 * Gives the calling suite a fresh database for its lifetime (dropped after it), or skips it.
 * Call it inside a `describe`; use the getter inside tests and hooks only.
 */
export function usePostgresTestDatabase(prefix?: string, poolOptions?: pg.PoolConfig): () => TestDatabase {
  let database: TestDatabase | undefined;
  before(async function () {
    this.timeout(30_000);
    database = await createTestDatabaseOrSkip(this, prefix, poolOptions);
  });
  after(async function () {
    this.timeout(30_000);
    await database?.drop();
  });
  return () => {
    if (database === undefined) throw new Error('the test database is not ready (use it inside tests and hooks)');
    return database;
  };
}
