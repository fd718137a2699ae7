/**
 * @storefront/testing: one contract suite per port, run against every adapter (memory, Mongo,
 * Redis), and small builders of valid test data. Test-only.
 */
export * from './builders.js';
export { expectDomainError, rejectionOf, sleep } from './assertions.js';
export { describeMenuRepositoryContract } from './contracts/menu-repository.contract.js';
export {
  describeIdempotencyKeysContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  type IdempotencyStores,
  type PlacementAdapters,
} from './contracts/order-repository.contract.js';
export { describeKeyedOrderWritesContract, type KeyedWriteAdapters } from './contracts/keyed-order-writes.contract.js';
export { FakeClock } from './fake-clock.js';
export { FakeTimers } from './fake-timers.js';
export { seededRandom } from './seeded-random.js';
export { Faults, InjectedFault, type Gate } from './faults/faulty.js';
export { describeCustomerRepositoryContract } from './contracts/customer-repository.contract.js';
export { describePendingErasuresContract, type ErasureMarkStores } from './contracts/pending-erasures.contract.js';
export { describeErasureCrashContract, type ErasureStores } from './contracts/erasure-crash.contract.js';
export { describeOrderLifecycleContract } from './contracts/order-lifecycle.contract.js';
export { describeOrderOutboxContract, type OutboxStores } from './contracts/order-outbox.contract.js';
export { describeStoreStateRepositoryContract } from './contracts/store-state-repository.contract.js';
export { describeSlotCapacityContract, type CapacityAdapters } from './contracts/slot-capacity.contract.js';
export { describeSessionStoreContract } from './contracts/session-store.contract.js';
export { describeMailerContract, type MailerUnderTest } from './contracts/mailer.contract.js';
export { describePasswordResetTokenStoreContract } from './contracts/password-reset-token-store.contract.js';
export { describeRateLimiterContract } from './contracts/rate-limiter.contract.js';
export * from './contracts/order-event-log.contract.js';
export {
  freePort,
  hasRedisServer,
  privateRedis,
  redisAnswers,
  skipWithoutRedisServer,
  startPrivateRedisOrSkip,
  type PrivateRedis,
  type PrivateRedisOptions,
} from './private-redis.js';
export { SseReader, type SseFrame, type SseReaderOptions } from './sse-reader.js';
export {
  createTestDatabase,
  createTestDatabaseOrSkip,
  DEFAULT_TEST_DATABASE_URL,
  postgresUnavailableReason,
  testDatabaseBaseUrl,
  usePostgresTestDatabase,
  type TestDatabase,
} from './postgres-test-database.js';
export { postgresBinDir, privatePostgres, startPrivatePostgresOrSkip, type PrivatePostgres } from './private-postgres.js';
export { WebhookReceiver, type ReceivedRequest, type ReceiverMode, type WebhookReceiverOptions } from './webhook-receiver.js';
export { aWebhookEndpoint, aWebhookEvent, aWebhookSecret, webhookTime } from './webhook-builders.js';
export { describeWebhookEndpointStoreContract } from './contracts/webhook-endpoint-store.contract.js';
export {
  describeWebhookDeliveriesContract,
  type WebhookDeliveryPorts,
  type WebhookDeliveryStoresUnderTest,
} from './contracts/webhook-deliveries.contract.js';
export { describeProviderEventsContract } from './contracts/provider-events.contract.js';
export { aPayment, anUnpaidOrder, describeOrderPaymentsContract, type OrderPaymentStores } from './contracts/order-payments.contract.js';
export { describePaymentGatewayContract, type PaymentGatewayUnderTest } from './contracts/payment-gateway.contract.js';
export { signStripePayload, StripeStandIn, type SignedEvent, type StandInMode, type StandInRequest, type StripeStandInOptions } from './stripe-stand-in.js';
