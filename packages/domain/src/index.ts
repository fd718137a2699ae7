/**
 * @storefront/domain: the pure core of Storefront (entities, use cases, ports, domain errors; no
 * runtime dependencies, no I/O). This entry point is what an embedder uses; what only adapter
 * authors share is `@storefront/domain/adapter-kit`, and anything else may change without notice.
 * packages/app/test/embedding.spec.ts holds the number of names here: keep this file small.
 *
 * @packageDocumentation
 */

// Wiring: the ports in, every use case out, and the defaults of its options.
export {
  createStorefront,
  DEFAULT_LOGIN_POLICY,
  DEFAULT_PASSWORD_RESET_URL,
  DEFAULT_POLL_POLICY,
  DEFAULT_REGISTER_POLICY,
  DEFAULT_REQUEST_POLICY,
} from './storefront.js';
export type { Storefront, StorefrontOptions, StorefrontPorts, WebhookOptions } from './storefront.js';
export type { SlotRules } from './fulfilment/slot-rules.js';

// Errors: a stable code, never an HTTP status.
export { DomainError, isDomainError } from './shared/errors.js';
export type { DomainErrorCode, FieldIssue } from './shared/errors.js';
export { RateLimitedError } from './rate-limits/rate-limits.js';

// Ports: one adapter each (see StorefrontPorts); what implementing them needs is in adapter-kit.
export type { MenuRepository } from './menu/menu-repository.js';
export type { OrderRepository } from './orders/order-repository.js';
export type { IdempotencyKeys } from './orders/idempotency-keys.js';
export type { OrderOutbox } from './orders/order-outbox.js';
export type { CustomerRepository } from './accounts/customer-repository.js';
export type { PendingErasures } from './accounts/pending-erasures.js';
export type { SessionStore } from './accounts/session-store.js';
export type { PasswordResetTokenStore } from './accounts/password-reset-tokens.js';
export type { Mailer } from './accounts/mailer.js';
export type { RateLimiter, RateLimitPolicy } from './rate-limits/rate-limiter.js';
export type { StoreStateRepository } from './store/store-state-repository.js';
export type { OrderEventLog } from './orders/order-event-log.js';
export type { Clock, PasswordHasher, TokenService } from './shared/security.js';
export type { DeliveryZones } from './fulfilment/delivery-zones.js';
export type { SlotPlaces } from './fulfilment/slot-places.js';
export type { HealthProbe } from './status/health.js';
export type { OpeningHours } from './store/opening-hours.js';

// Entities, value types and the rules a form needs.
export type { Product } from './menu/product.js';
export type { OptionGroup } from './menu/option-group.js';
export type { Customer, CustomerProfile, Role } from './accounts/customer.js';
export { ROLES } from './accounts/customer.js';
export type { Order, OrderLine, OrderStatus } from './orders/order.js';
export { ORDER_LIMITS } from './orders/order.js';
export { ORDER_MOVES, ORDER_STATUSES } from './orders/order-lifecycle.js';
export type { DeliveryAddress, Fulfilment } from './fulfilment/fulfilment.js';
export type { OrderEvent } from './orders/order-event.js';
export type { StoreState, StoreStatus } from './store/store.js';
export type { Page } from './shared/page.js';
export type { MenuDocument } from './menu/menu-document.js';
export { EMAIL_RULE, type Email } from './accounts/email.js';
export { PASSWORD_RULE, type Password } from './accounts/password.js';
export { DISPLAY_NAME_RULE } from './accounts/display-name.js';
export { MONEY_RULE } from './shared/money.js';
export { TAX_RATE_RULE } from './taxes/tax-rate.js';

// Inputs and results of the use cases (any other input: `Parameters<Storefront['name']['execute']>[0]`).
export type { MenuSnapshot } from './menu/menu-catalog.js';
export type { PlaceOrderInput, PlaceOrderResult } from './orders/place-order.js';
export type { TokenPair } from './accounts/session-tokens.js';
export type { Caller } from './accounts/authenticate.js';
export type { Viewer } from './orders/order-access.js';
export type { FeedItem, FeedSink } from './orders/order-feeds.js';

// Outgoing webhooks: the admin's interface, what it shows, and the ports behind it.
export { WEBHOOK_EVENT_TYPES } from './webhooks/model.js';
export type { WebhookDelivery, WebhookEndpoint } from './webhooks/model.js';
export type {
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointStore,
  WebhookSender,
  WebhookUrlPolicy,
} from './webhooks/ports.js';
export type { WebhookAdministration } from './webhooks/admin.js';
