/**
 * Versioned migrations, applied in order under a transaction-scoped advisory lock: of several
 * instances starting at once, the first applies what is missing and the others wait on the lock,
 * then find nothing left to do. Each migration runs in the same transaction as its row in
 * schema_migrations, so a migration is applied entirely or not at all. A database whose schema is
 * newer than this code knows is refused (SchemaTooNewError) and left untouched: an older instance
 * must not write to a layout it does not understand.
 */
import type pg from 'pg';
import { MIGRATIONS } from './migrations/index.js';
import { databaseOperation } from './database-errors.js';

/** The schema version this code reads and writes: the last migration's. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/**
 * The advisory lock's key, a constant 64-bit number ("storefrt" read as ASCII bytes): every
 * instance of any version takes the same one.
 */
const MIGRATION_LOCK_KEY = '8318601665428385908';

export class SchemaTooNewError extends Error {
  readonly found: number;
  readonly supported: number;

  constructor(found: number, supported: number) {
    super(
      `The database schema is at version ${found}, newer than this version of Storefront supports (${supported}). ` +
        'Run a Storefront version at least as new as the one that migrated the database.',
    );
    this.name = 'SchemaTooNewError';
    this.found = found;
    this.supported = supported;
  }
}

export interface MigrateOptions {
  readonly log?: (message: string) => void;
  /** Stop at this version (tests of a migration start from the schema before it); default the newest. */
  readonly to?: number;
}

/** Brings the schema up to SCHEMA_VERSION; resolves to the versions before and after. */
export function migrate(pool: pg.Pool, options: MigrateOptions = {}): Promise<{ from: number; to: number }> {
  return databaseOperation(async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const found = await currentVersion(client);
      if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
      const target = Math.min(options.to ?? SCHEMA_VERSION, SCHEMA_VERSION);
      for (const [index, migration] of MIGRATIONS.entries()) {
        const version = index + 1;
        if (version <= found || version > target) continue;
        options.log?.(`migrating the database schema to version ${version} (${migration.name})`);
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, migration.name]);
      }
      await client.query('COMMIT');
      return { from: found, to: Math.max(found, target) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  });
}

/** The newest version applied; 0 for a database that was never migrated. */
export async function currentVersion(client: pg.ClientBase): Promise<number> {
  const table = await client.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  if (table.rows[0]?.exists !== true) return 0;
  const result = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return result.rows[0]?.version ?? 0;
}

/** Thrown when the database was never migrated to this code's schema (or to any). */
export class SchemaNotMigratedError extends Error {
  constructor(readonly found: number, readonly expected: number) {
    super(`The database schema is at version ${found}; this version of Storefront needs ${expected}. Run \`storefront db migrate\` (or start with migrations on).`);
    this.name = 'SchemaNotMigratedError';
  }
}

/** Resolves when the schema is exactly SCHEMA_VERSION; else the error that says why not. */
export async function assertSchemaSupported(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const found = await currentVersion(client);
    if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
    if (found < SCHEMA_VERSION) throw new SchemaNotMigratedError(found, SCHEMA_VERSION);
  } finally {
    client.release();
  }
}
