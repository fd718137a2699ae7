/**
 * @storefront/domain: the pure core of Storefront. Entities, use cases, ports and domain errors;
 * no runtime dependencies, no I/O. Adapters implement the ports; `createStorefront` wires the use
 * cases from them, and is the one way to get them.
 *
 * This file is the whole public API: what is not exported here (the search index, text
 * normalisation, hashing helpers, validation internals) may change without notice.
 *
 * @packageDocumentation
 */

// Wiring: the ports in, every use case out.
export {
  createStorefront,
  DEFAULT_LOGIN_POLICY,
  DEFAULT_PASSWORD_RESET_URL,
  DEFAULT_POLL_POLICY,
  DEFAULT_REGISTER_POLICY,
  DEFAULT_REQUEST_POLICY,
} from './storefront.js';
export type { Storefront, StorefrontOptions, StorefrontPorts, WebhookOptions } from './storefront.js';

// Use cases: built by createStorefront; exported as types, to name them and their inputs.
export type { Authenticate, AuthenticateDependencies, Caller } from './use-cases/authenticate.js';
export type { CheckState, CheckStatus, ServiceStatus } from './use-cases/check-status.js';
export type { GetCurrentCustomer } from './use-cases/get-current-customer.js';
export type { ImportMenu } from './use-cases/import-menu.js';
export type { ListMenu } from './use-cases/list-menu.js';
export type { ListOrders, ListOrdersInput } from './use-cases/list-orders.js';
export type { Login, LoginDependencies, LoginInput } from './use-cases/login.js';
export { LOGIN_EMAIL_CEILING_FACTOR } from './use-cases/password-attempts.js';
export type { PasswordAttemptPolicies } from './use-cases/password-attempts.js';
export type { Logout } from './use-cases/logout.js';
export type { PageInput } from './use-cases/paging.js';
export type { PlaceOrder, PlaceOrderInput, PlaceOrderOptions, PlaceOrderResult } from './use-cases/place-order.js';
export type { CheckRateLimit, GetRateLimitStatus, RateLimitScope, RateLimitStatus, RateLimitSubject } from './use-cases/rate-limits.js';
export type { RefreshSession, RefreshSessionDependencies } from './use-cases/refresh-session.js';
export type { RegisterCustomer, RegisterCustomerInput } from './use-cases/register-customer.js';
export type { SignUp, SignUpDependencies, SignUpInput } from './use-cases/sign-up.js';
export type { AccountPorts } from './use-cases/account-ports.js';
export { PASSWORD_RESET_TTL_SECONDS, passwordResetMessage } from './use-cases/password-reset.js';
export type {
  ConfirmPasswordReset,
  ConfirmPasswordResetInput,
  PasswordResetDependencies,
  PasswordResetMail,
  RequestPasswordReset,
  RequestPasswordResetInput,
} from './use-cases/password-reset.js';
export { ERASED_CUSTOMER_LABEL } from './use-cases/erase-account.js';
export type { EraseAccount, EraseAccountDependencies, EraseAccountInput, LabelCustomers } from './use-cases/erase-account.js';
export { BackgroundTasks } from './use-cases/background-tasks.js';
export type { BackgroundTaskOptions } from './use-cases/background-tasks.js';
export type { SearchMenu, SearchMenuInput } from './use-cases/search-menu.js';
export type { SetCustomerDisabled } from './use-cases/set-customer-disabled.js';
export type { MenuSnapshot } from './menu-catalog.js';
export type { CancelOrder, GetOrder, MoveOrder, MoveOrderInput, Viewer } from './use-cases/order-access.js';
export type { ListKitchenOrders, ListKitchenOrdersInput } from './use-cases/list-kitchen-orders.js';
export type { SetCustomerRole } from './use-cases/set-customer-role.js';
export type { GetStoreStatus, SetAcceptingOrders, SetProductAvailability } from './use-cases/store-control.js';
export { STORE_STATE_CACHE_MS } from './use-cases/store-gate.js';
export type { OrderEventRelay, OrderEventRelayOptions } from './use-cases/order-event-relay.js';
export type { Feed, FeedItem, FeedSink, OpenKitchenFeedInput, OpenOrderFeedInput, OrderFeeds } from './use-cases/order-feeds.js';

// Errors: a stable code, never an HTTP status.
export { DomainError, isDomainError, validationFailed } from './errors.js';
export type { DomainErrorCode, DomainErrorOptions, FieldIssue } from './errors.js';
export { RateLimitedError } from './use-cases/rate-limits.js';

// Entities, their limits and their ordering rules.
export { compareProducts } from './model/product.js';
export type { Product, ProductDraft } from './model/product.js';
export { OPTION_LIMITS } from './model/option-group.js';
export type { Option, OptionDraft, OptionGroup, OptionGroupDraft } from './model/option-group.js';
export type { Customer, CustomerProfile, Role } from './model/customer.js';
export { isStaffRole, ROLES } from './model/customer.js';
export { EMAIL_RULE, emailOf, normalizeEmail, type Email } from './model/email.js';
export { PASSWORD_RULE, type Password } from './model/password.js';
export { DISPLAY_NAME_RULE, type DisplayName } from './model/display-name.js';
export { MONEY_RULE, isMoney } from './model/money.js';
export { compareKitchenOrders, compareOrders, ORDER_LIMITS } from './model/order.js';
export { copyDeliveryAddress, FULFILMENT_LIMITS, FULFILMENT_TYPES, legacyFulfilment, PICKUP_ASAP } from './model/fulfilment.js';
export type { DeliveryAddress, Fulfilment, FulfilmentRequest, FulfilmentType } from './model/fulfilment.js';
export { SlotGrid, isCalendarDate } from './fulfilment/slot-grid.js';
export type { Slot } from './fulfilment/slot-grid.js';
export { DEFAULT_SLOT_RULES } from './fulfilment/slot-rules.js';
export type { SlotRefusal, SlotRules } from './fulfilment/slot-rules.js';
export type { AddressInput, FulfilmentInput } from './fulfilment/fulfilment-request.js';
export type { ListSlots, ListSlotsInput, OfferedSlot, QuoteDelivery, SlotList } from './use-cases/fulfilment-queries.js';
export type { SlotPlaces } from './ports/slot-places.js';
export { cheapestZone } from './ports/delivery-zones.js';
export type { DeliveryZone, DeliveryZones } from './ports/delivery-zones.js';
export type { Order, OrderLine, OrderLineOption, OrderRequestLine, OrderStatus, StatusChange } from './model/order.js';
export {
  applyOrderMove,
  FINAL_STATUSES,
  findMove,
  isOrderStatus,
  OPEN_STATUSES,
  ORDER_MOVES,
  ORDER_STATUSES,
  pathFromPlaced,
  placedState,
  planMove,
  REASON_LIMITS,
} from './model/order-lifecycle.js';
export type { LifecycleMove, MoveRequest, Mover, OrderMove } from './model/order-lifecycle.js';
export { DEFAULT_STORE_STATE } from './model/store.js';
export type { StoreSettings, StoreState, StoreStatus } from './model/store.js';
export type { Session } from './model/session.js';
export { PAGING, pageOffset, toPage } from './model/page.js';
export type { Page, PageRequest } from './model/page.js';
export { isRecord } from './model/validation.js';
export { menuDocumentOf, parseMenuDocument } from './model/menu-document.js';
export type { MenuDocument, MenuDocumentOption, MenuDocumentOptionGroup, MenuDocumentProduct } from './model/menu-document.js';
export { SEARCH_LIMITS } from './search/normalize.js';
export { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, sessionIdOf } from './session-tokens.js';
export type { TokenPair } from './session-tokens.js';

// Ports, and what adapters share to implement them alike.
export type { MenuRepository } from './ports/menu-repository.js';
export { assignOptionIds, optionNameKey } from './model/option-ids.js';
export type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyKeyRef,
  IdempotencyRecord,
  InsertResult,
  OrderRepository,
} from './ports/order-repository.js';
export { copyIdempotencyRecord } from './ports/order-repository.js';
export type { UnpublishedOrder } from './ports/order-repository.js';
export type { EventReplay, LogPosition, OrderEventListener, OrderEventLog } from './ports/order-event-log.js';
export { compareEventIds, eventOfVersion, isEventId, unpublishedEvents } from './model/order-event.js';
export type { OrderEvent, OrderEventData, OrderEventType } from './model/order-event.js';
export type { CustomerRepository } from './ports/customer-repository.js';
export type { StoreStateRepository } from './ports/store-state-repository.js';
export type { OpeningHours } from './ports/opening-hours.js';
export { alwaysOpen } from './ports/opening-hours.js';
export type { SessionStore } from './ports/session-store.js';
export type { Mailer, MailMessage } from './ports/mailer.js';
export type { PasswordResetToken, PasswordResetTokenStore } from './ports/password-reset-tokens.js';
export type { RateLimitDecision, RateLimiter, RateLimitPolicy } from './ports/rate-limiter.js';
export type { HealthProbe } from './ports/health.js';
export type { AbortSignalLike, AccessClaims, Clock, HashOptions, PasswordHasher, TokenService } from './ports/security.js';
export { systemClock } from './ports/security.js';
export { newId, OrderStamper, orderIdTime } from './ids.js';
export type { IdPrefix } from './ids.js';
export { bucketWidthMs, decideSlidingWindow, SLIDING_WINDOW_BUCKETS } from './rate-limit/sliding-window.js';
export type { WindowBuckets } from './rate-limit/sliding-window.js';
export { FallbackRateLimiter } from './rate-limit/fallback-rate-limiter.js';
export type { FallbackRateLimiterOptions, RateLimitDecider } from './rate-limit/fallback-rate-limiter.js';

// Outgoing webhooks: the shapes the stores keep, and their ports.
export {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FAILING_DISABLE_MS,
  WEBHOOK_LIMITS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_SECRET_OVERLAP_MS,
} from './webhooks/model.js';
export type {
  DeliveryOutcome,
  LeasedDelivery,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDeliveryType,
  WebhookEndpoint,
  WebhookEvent,
  WebhookEventType,
  WebhookSecret,
} from './webhooks/model.js';
export type {
  DeliveryListRequest,
  LeaseRequest,
  WebhookDeliveryStats,
  WebhookDeliveryStore,
  WebhookEndpointChanges,
  WebhookEndpointStore,
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
  WebhookUrlPolicy,
} from './webhooks/ports.js';
export type { AddWebhookInput, ChangeWebhookInput, WebhookAdministration, WebhookWithSecret } from './webhooks/admin.js';
export type { ManageWebhooks, ManageWebhooksDependencies } from './webhooks/manage-webhooks.js';
export type { WebhookDispatcher, WebhookDispatcherOptions, WebhookDispatcherPorts } from './webhooks/webhook-dispatcher.js';
export type { WebhookPayload } from './webhooks/webhook-events.js';
export type { Random } from './webhooks/retry-schedule.js';
