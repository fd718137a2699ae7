/**
 * @storefront/adapters-memory: every Storefront port in process memory (the embedded default, and
 * what tests run against), the in-process sliding-window limiter, and the demo data.
 */
export { InMemoryMenuRepository } from './in-memory-menu-repository.js';
export { InMemoryOrderRepository } from './in-memory-order-repository.js';
export { InMemoryIdempotencyKeys } from './in-memory-idempotency-keys.js';
export { InMemoryOrderOutbox } from './in-memory-order-outbox.js';
export { InMemoryOrderPayments } from './in-memory-order-payments.js';
export { IntentTakenError } from './payment-index.js';
export { InMemoryCustomerRepository } from './in-memory-customer-repository.js';
export { InMemoryPendingErasures } from './in-memory-pending-erasures.js';
export { InMemoryStoreStateRepository } from './in-memory-store-state-repository.js';
export { InMemorySessionStore, type InMemorySessionStoreOptions } from './in-memory-session-store.js';
export {
  InMemoryPasswordResetTokenStore,
  type InMemoryPasswordResetTokenStoreOptions,
} from './in-memory-password-reset-token-store.js';
export { InMemoryRateLimiter, type InMemoryRateLimiterOptions } from './in-memory-rate-limiter.js';
export { InMemoryOrderEventLog, type InMemoryOrderEventLogOptions } from './in-memory-order-event-log.js';
export { InMemorySlotPlaces } from './in-memory-slot-places.js';
export { InMemoryWebhookEndpointStore } from './in-memory-webhook-endpoint-store.js';
export { InMemoryWebhookDeliveryLog } from './in-memory-webhook-delivery-log.js';
export { InMemoryWebhookDeliveryQueue } from './in-memory-webhook-delivery-queue.js';
export { InMemoryWebhookDeliveryUpkeep } from './in-memory-webhook-delivery-upkeep.js';
export { WebhookDeliveryRows } from './webhook-delivery-rows.js';
export { InMemoryPaymentGateway, type InMemoryPaymentGatewayOptions } from './in-memory-payment-gateway.js';
export { InMemoryProviderEvents } from './in-memory-provider-events.js';
export { createMemoryAdapters, type MemoryAdapterOptions, type MemoryAdapters } from './create-memory-adapters.js';
export { loadMenuFile, MenuFileError } from './load-menu-file.js';
export { DEMO_TAXES, demoMenu, type MenuDocument } from './demo/demo-menu.js';
export { demoCustomers, type DemoCustomer } from './demo/demo-customers.js';
export { seedDemoData, type DemoSeedResult } from './demo/seed-demo-data.js';
