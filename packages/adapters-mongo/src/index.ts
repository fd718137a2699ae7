/**
 * @storefront/adapters-mongo: the storage ports (menu, orders, customers, sessions, reset tokens, store state) on MongoDB with
 * the official driver, atomic through unique indexes and conditional updates rather than
 * transactions, so a standalone server will do. Start from `createMongoAdapters({ db })`.
 */
export { createMongoAdapters, type MongoAdapterOptions, type MongoAdapters } from './create-mongo-adapters.js';
export { MongoMenuRepository } from './mongo-menu-repository.js';
export { MongoOrderRepository } from './mongo-order-repository.js';
export { MongoOrderOutbox } from './mongo-order-outbox.js';
export { MongoOrderPayments } from './mongo-order-payments.js';
export { MongoPendingErasures } from './mongo-pending-erasures.js';
export { MongoCustomerRepository } from './mongo-customer-repository.js';
export { MongoSessionStore, type MongoSessionStoreOptions } from './mongo-session-store.js';
export { MongoPasswordResetTokenStore } from './mongo-password-reset-token-store.js';
export { MongoStoreStateRepository } from './mongo-store-state-repository.js';
export { MongoIdempotencyKeys } from './mongo-idempotency-keys.js';
export { MongoSlotPlaces, type SlotPlacesDocument } from './mongo-slot-places.js';
export { MenuRevision } from './menu-revision.js';
export { MongoWebhookEndpointStore } from './mongo-webhook-endpoint-store.js';
export { MongoWebhookDeliveryLog } from './mongo-webhook-delivery-log.js';
export { MongoWebhookDeliveryQueue } from './mongo-webhook-delivery-queue.js';
export { MongoWebhookDeliveryUpkeep } from './mongo-webhook-delivery-upkeep.js';
export { MongoProviderEvents, type ProviderEventDocument } from './mongo-provider-events.js';
export { COLLECTIONS, INDEXES, ensureIndexes, IndexBuildError, type IndexOptions } from './collections.js';
export { DATA_UPGRADES, dropRetiredIndexes, upgradeOrders, upgradeDatabase, type SchemaDocument } from './upgrades.js';
export { isDatabaseUnavailable, databaseOperation, toDomainError } from './database-errors.js';
export {
  DEFAULT_MONGODB_TIMEOUT_MS,
  deploymentOf,
  deploymentOn,
  durableDb,
  durableSettings,
  mongoClientOptions,
  mongoUriProblem,
  readLevel,
  writeAcknowledgement,
  type Deployment,
  type DurableSettings,
  type UriSettings,
} from './client-settings.js';
export { mongoStartError, type StartFailure } from './start-errors.js';
export type { ProductDocument } from './product-mapper.js';
export type { OrderDocument, OrderLineDocument, StatusChangeDocument } from './order-mapper.js';
export type { PaymentChangeDocument, PaymentDocument, RefundDocument } from './payment-mapper.js';
export type { IdempotencyDocument } from './idempotency-record.js';
export type { CustomerDocument } from './customer-mapper.js';
export type { SessionDocument } from './session-mapper.js';
export type { PasswordResetTokenDocument } from './password-reset-token-mapper.js';
export type { MenuRevisionDocument } from './menu-revision.js';
export type { StoreStateDocument } from './mongo-store-state-repository.js';
export type { WebhookDeliveryDocument, WebhookEndpointDocument } from './webhook-mappers.js';
