/**
 * The PostgreSQL database's connection: one pool (PG_POOL_MAX, PG_TIMEOUT_MS), and in the background
 * the schema migrated (once across instances: the adapter holds an advisory lock) and the adapters
 * made, retried until PostgreSQL is up, so that a Storefront started before its database serves at
 * once: database operations fail fast with `database_unavailable` and /api/status reports `store: down`.
 *
 * What no retry changes stops the process naming DATABASE_URL (ready() rejects with a ConfigError):
 * refused credentials, a missing database (the adapter's postgresStartError), and a schema newer
 * than this code (an older Storefront started after an upgrade must not write to it).
 *
 * Unlike MongoDB's client, one pool serves every attempt: a pool whose first connect failed simply
 * opens a new connection on the next query.
 */
import { createPostgresAdapters, migrate, postgresStartError, SchemaTooNewError, type PostgresAdapters } from '@storefront/adapters-postgres';
import { DomainError } from '@storefront/domain';
import pg from 'pg';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';
import { poolConfig, redactDatabaseUrl, type PostgresSettings } from './postgres-settings.js';
import { retryUntilUp, type DatabaseConnection } from './database-connection.js';

export class PostgresDatabaseConnection implements DatabaseConnection {
  readonly pool: pg.Pool;
  private adapters: PostgresAdapters | undefined;
  private stopped = false;
  private readonly connected: Promise<PostgresAdapters>;

  constructor(
    private readonly settings: PostgresSettings,
    private readonly logger: Logger,
    options: { readonly maxRetryDelayMs?: number } = {},
  ) {
    this.pool = new pg.Pool(poolConfig(settings));
    // An idle pooled connection that the server closes (a restart, an admin's pg_terminate_backend)
    // is reported here; without a listener it would crash the process. The pool drops it by itself.
    this.pool.on('error', (error) => logger.warn({ err: error }, 'store: an idle PostgreSQL connection was closed; the pool opens a new one when needed'));
    this.connected = retryUntilUp({
      what: 'PostgreSQL',
      logger,
      stopped: () => this.stopped,
      attempt: (attempt) => this.connect(attempt),
      permanent: (error) => permanentFailure(error),
      ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
    });
    this.connected.catch(() => undefined); // rejected only by stop() or a permanent error; readers see their own rejection
  }

  ready(): Promise<PostgresAdapters> {
    return this.connected;
  }

  require(): PostgresAdapters {
    if (this.adapters === undefined) throw new DomainError('database_unavailable', 'The database is not connected yet.');
    return this.adapters;
  }

  /**
   * Drains the pool: waits for the connections in use to be released (each statement is bounded by
   * PG_TIMEOUT_MS), then closes every one. A start-up attempt still running fails and is not retried.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.pool.end();
  }

  private async connect(attempt: number): Promise<PostgresAdapters> {
    const { from, to } = await migrate(this.pool, { log: (message) => this.logger.info({}, `store: ${message}`) });
    this.adapters = await createPostgresAdapters({ pool: this.pool });
    const { poolMax: pool_max, timeoutMs: timeout_ms } = this.settings;
    this.logger.info({ database: redactDatabaseUrl(this.settings.url), attempt, schema: to, migrated_from: from === to ? undefined : from, pool_max, timeout_ms }, 'store: connected to PostgreSQL');
    return this.adapters;
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
