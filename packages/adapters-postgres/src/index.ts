/**
 * @storefront/adapters-postgres: the storage ports (menu, orders, customers, sessions, reset
 * tokens, store state) on PostgreSQL with node-postgres (`pg`), atomic through transactions,
 * conditional updates and row locks, with versioned migrations applied under an advisory lock.
 * Start from `migrate(pool)` then `createPostgresAdapters({ pool })`.
 */
export { createPostgresAdapters, type PostgresAdapterOptions, type PostgresAdapters } from './create-postgres-adapters.js';
export { migrate, currentVersion, SCHEMA_VERSION, SchemaTooNewError, type MigrateOptions } from './migrate.js';
export { isStoreUnavailable, isUniqueViolation, postgresStartError, storeOperation, toDomainError } from './store-errors.js';
