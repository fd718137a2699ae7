/**
 * `storefront db migrate`: brings the PostgreSQL schema of DATABASE_URL up to this version by hand,
 * before a deployment or to see what a start would do. The start runs the same migrations (under
 * the same advisory lock), so running it is never required.
 */
import { migrate, SchemaTooNewError } from '@storefront/adapters-postgres';
import pg from 'pg';
import type { StorefrontConfig } from '../config.js';
import { poolConfig, redactDatabaseUrl } from '../postgres-settings.js';
import { CliError, type CliIo } from './cli-io.js';

export async function migrateDatabase(config: StorefrontConfig, io: CliIo, log: (message: string) => void): Promise<void> {
  if (config.database !== 'postgres' || config.databaseUrl === undefined) {
    throw new CliError(`db migrate applies to the PostgreSQL store: set STOREFRONT_STORE=postgres and DATABASE_URL (STOREFRONT_STORE is ${config.database})`);
  }
  const where = redactDatabaseUrl(config.databaseUrl);
  // The migration's own statements may take longer than a request's: the pool's time-out bounds
  // the connection, and each migration's statements run as the adapter sets them.
  const pool = new pg.Pool({ ...poolConfig({ url: config.databaseUrl, poolMax: 1, timeoutMs: config.pgTimeoutMs }), statement_timeout: 0, query_timeout: 0 });
  pool.on('error', () => undefined); // an idle connection dropped: the next query fails and says so
  try {
    const { from, to } = await migrate(pool, { log });
    io.out(from === to ? `${where}: schema already at version ${to}` : `${where}: schema migrated from version ${from} to ${to}`);
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      throw new CliError(`${where}: the schema is version ${error.found}, newer than this Storefront knows (${error.supported}); nothing was changed`);
    }
    throw new CliError(`db migrate failed on ${where}: ${(error as Error).message}`);
  } finally {
    await pool.end();
  }
}
