/**
 * The PostgreSQL database's connection: one pool (PG_POOL_MAX, PG_TIMEOUT_MS), and in the
 * background the schema migrated (under the adapter's advisory lock) and the adapters made, retried
 * until PostgreSQL is up, so a Storefront started before its database serves at once
 * (`database_unavailable`, `store: down`). What no retry changes (refused credentials, a missing
 * database, a schema newer than this code) stops the process naming DATABASE_URL. One pool serves
 * every attempt: a failed first connect just opens a new connection on the next query.
 */
import { createPostgresAdapters, migrate, postgresStartError, SchemaTooNewError, type PostgresAdapters } from '@storefront/adapters-postgres';
import pg from 'pg';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';
import { poolConfig, redactDatabaseUrl, type PostgresSettings } from './postgres-settings.js';
import { RetryingDatabaseConnection } from './database-connection.js';

export class PostgresDatabaseConnection extends RetryingDatabaseConnection<PostgresAdapters> {
  readonly pool: pg.Pool;

  /**
   * stop() drains the pool: waits for the connections in use to be released (each statement is
   * bounded by PG_TIMEOUT_MS), then closes every one. A start-up attempt still running fails and is
   * not retried.
   */
  constructor(settings: PostgresSettings, logger: Logger, options: { readonly maxRetryDelayMs?: number } = {}) {
    const pool = new pg.Pool(poolConfig(settings));
    // An idle pooled connection that the server closes (a restart, an admin's pg_terminate_backend)
    // is reported here; without a listener it would crash the process. The pool drops it by itself.
    pool.on('error', (error) => logger.warn({ err: error }, 'store: an idle PostgreSQL connection was closed; the pool opens a new one when needed'));
    super({
      what: 'PostgreSQL',
      logger,
      attempt: async (attempt) => {
        const { from, to } = await migrate(pool, { log: (message) => logger.info({}, `store: ${message}`) });
        const adapters = await createPostgresAdapters({ pool });
        const { poolMax: pool_max, timeoutMs: timeout_ms } = settings;
        logger.info({ database: redactDatabaseUrl(settings.url), attempt, schema: to, migrated_from: from === to ? undefined : from, pool_max, timeout_ms }, 'store: connected to PostgreSQL');
        return adapters;
      },
      permanent: permanentFailure,
      close: () => pool.end(),
      ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
    });
    this.pool = pool;
  }
}

function permanentFailure(error: unknown): ConfigError | undefined {
  if (error instanceof SchemaTooNewError) {
    return ConfigError.of(
      'DATABASE_URL',
      `DATABASE_URL: the database's schema is version ${error.found}, newer than this Storefront knows (${error.supported}): run the newer Storefront, or point DATABASE_URL at another database`,
    );
  }
  const failure = postgresStartError(error);
  if (!failure.fatal) return undefined;
  return ConfigError.of('DATABASE_URL', `DATABASE_URL: PostgreSQL refuses the store, and retrying will not change that: ${failure.reason}`);
}
