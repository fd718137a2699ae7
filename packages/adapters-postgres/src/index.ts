/**
 * @storefront/adapters-postgres: the storage ports (menu, orders, customers, sessions, reset
 * tokens, store state) on PostgreSQL with node-postgres (`pg`), atomic through transactions,
 * conditional updates and row locks, with versioned migrations applied under an advisory lock.
 * Start from `migrate(pool)` then `createPostgresAdapters({ pool })`.
 */
export { createPostgresAdapters, postgresDatabaseProbe, type PostgresAdapterOptions, type PostgresAdapters } from './create-postgres-adapters.js';
export { assertSchemaSupported, currentVersion, migrate, SCHEMA_VERSION, SchemaNotMigratedError, SchemaTooNewError, type MigrateOptions } from './migrate.js';
export { isDatabaseUnavailable, isUniqueViolation, postgresStartError, databaseOperation, toDomainError } from './database-errors.js';
export { PostgresMenuRepository } from './postgres-menu-repository.js';
export { PostgresOrderRepository } from './postgres-order-repository.js';
export { PostgresOrderOutbox } from './postgres-order-outbox.js';
export { PostgresPendingErasures } from './postgres-pending-erasures.js';
export { PostgresCustomerRepository } from './postgres-customer-repository.js';
export { PostgresSessionStore, type PostgresSessionStoreOptions } from './postgres-session-store.js';
export { PostgresPasswordResetTokenStore } from './postgres-password-reset-token-store.js';
export { PostgresStoreStateRepository } from './postgres-store-state-repository.js';
export { PostgresIdempotencyKeys } from './postgres-idempotency-keys.js';
export { PostgresKeyedOrderWrites } from './postgres-keyed-order-writes.js';
export { PostgresSlotPlaces } from './postgres-slot-places.js';
export { PostgresWebhookEndpointStore } from './postgres-webhook-endpoint-store.js';
export { PostgresWebhookDeliveryLog } from './postgres-webhook-delivery-log.js';
export { PostgresWebhookDeliveryQueue } from './postgres-webhook-delivery-queue.js';
export { PostgresWebhookDeliveryUpkeep } from './postgres-webhook-delivery-upkeep.js';
export { PostgresProviderEvents } from './postgres-provider-events.js';
export { PostgresOrderPayments } from './postgres-order-payments.js';
