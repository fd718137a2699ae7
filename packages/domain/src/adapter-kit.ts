/**
 * @storefront/domain/adapter-kit: what adapter authors share, apart from what an embedder uses
 * (that is the package root, src/index.ts). A repository, limiter or event log implements a port
 * of the root with these helpers, so that every adapter of a port behaves alike: the same ids,
 * sort orders, paging, idempotency records and outbox events, the same sliding window, the same
 * order lifecycle. The HTTP adapter names the use cases and their inputs from here.
 *
 * No name is exported by both entry points: an adapter imports its ports from the root and its
 * helpers from here.
 *
 * @packageDocumentation
 */

// Use cases, as types (createStorefront builds them), with the inputs and results a driving adapter
// (HTTP) names.
export type { Authenticate, AuthenticateDependencies } from './use-cases/authenticate.js';
export type { CheckState, CheckStatus } from './use-cases/check-status.js';
export type { GetCurrentCustomer } from './use-cases/get-current-customer.js';
export type { ImportMenu } from './use-cases/import-menu.js';
export type { ListMenu } from './use-cases/list-menu.js';
export type { ListOrders, ListOrdersInput } from './use-cases/list-orders.js';
export type { Login, LoginDependencies } from './use-cases/login.js';
export type { PasswordAttemptPolicies } from './use-cases/password-attempts.js';
export type { Logout } from './use-cases/logout.js';
export type { PageInput } from './use-cases/paging.js';
export type { PlaceOrder, PlaceOrderOptions } from './use-cases/place-order.js';
export type { CheckRateLimit, GetRateLimitStatus, RateLimitScope, RateLimitStatus, RateLimitSubject } from './use-cases/rate-limits.js';
export type { RefreshSession, RefreshSessionDependencies } from './use-cases/refresh-session.js';
export type { RegisterCustomer, RegisterCustomerInput } from './use-cases/register-customer.js';
export type { SignUp, SignUpDependencies } from './use-cases/sign-up.js';
export type { AccountPorts } from './use-cases/account-ports.js';
export { PASSWORD_RESET_TTL_SECONDS, passwordResetMessage } from './use-cases/password-reset.js';
export type { ConfirmPasswordReset, ConfirmPasswordResetInput, PasswordResetDependencies, PasswordResetMail, RequestPasswordReset, RequestPasswordResetInput } from './use-cases/password-reset.js';
export { ERASED_CUSTOMER_LABEL } from './use-cases/erase-account.js';
export type { EraseAccount, EraseAccountDependencies, EraseAccountInput, LabelCustomers } from './use-cases/erase-account.js';
export { BackgroundTasks } from './use-cases/background-tasks.js';
export type { ErasureSweep, ErasureSweepOptions } from './use-cases/erasure-sweep.js';
export type { BackgroundTaskOptions } from './use-cases/background-tasks.js';
export type { SearchMenu, SearchMenuInput } from './use-cases/search-menu.js';
export type { SetCustomerDisabled } from './use-cases/set-customer-disabled.js';
export type { CancelOrder, GetOrder, MoveOrder, MoveOrderInput } from './use-cases/order-access.js';
export type { ListKitchenOrders, ListKitchenOrdersInput } from './use-cases/list-kitchen-orders.js';
export type { SetCustomerRole } from './use-cases/set-customer-role.js';
export type { GetStoreStatus, SetAcceptingOrders, SetProductAvailability } from './use-cases/store-control.js';
export { STORE_STATE_CACHE_MS } from './use-cases/store-gate.js';
export type { OrderEventRelay, OrderEventRelayOptions } from './use-cases/order-event-relay.js';
export type { Feed, OpenKitchenFeedInput, OpenOrderFeedInput, OrderFeeds } from './use-cases/order-feeds.js';

// Errors: building them as the use cases do, and a database's failures as every database adapter does.
export { validationFailed } from './errors.js';
export type { DomainErrorOptions } from './errors.js';
export { databaseOperations } from './database-operations.js';
export type { DatabaseOperations, OutageClassifier } from './database-operations.js';

// Entities: drafts, limits, the orders lists follow, the order lifecycle, fulfilment, paging,
// sessions and the menu file format.
export { compareProducts, productNameKey, productNameKeys } from './model/product.js';
export type { ProductDraft } from './model/product.js';
export { OPTION_LIMITS } from './model/option-group.js';
export type { Option, OptionDraft, OptionGroupDraft } from './model/option-group.js';
export { emailOf, normalizeEmail } from './model/email.js';
export { isMoney } from './model/money.js';
export { TEXT_RULE, textFits, type TextKind } from './model/text.js';
export { compareKitchenOrders, compareOrders, withoutDeliveryAddress } from './model/order.js';
export { copyDeliveryAddress, FULFILMENT_LIMITS, FULFILMENT_TYPES, legacyFulfilment, PICKUP_ASAP } from './model/fulfilment.js';
export type { FulfilmentRequest, FulfilmentType } from './model/fulfilment.js';
export { SlotGrid, isCalendarDate } from './fulfilment/slot-grid.js';
export type { Slot } from './fulfilment/slot-grid.js';
export type { SlotRefusal } from './fulfilment/slot-rules.js';
export type { AddressInput, FulfilmentInput } from './fulfilment/fulfilment-request.js';
export type { ListSlots, ListSlotsInput, OfferedSlot, QuoteDelivery, SlotList } from './use-cases/fulfilment-queries.js';
export { cheapestZone } from './ports/delivery-zones.js';
export type { DeliveryZone } from './ports/delivery-zones.js';
export type { OrderLineOption, OrderRequestLine, StatusChange } from './model/order.js';
export { applyOrderMove, FINAL_STATUSES, findMove, isOrderStatus, OPEN_STATUSES, pathFromPlaced, placedState, planMove, REASON_LIMITS } from './model/order-lifecycle.js';
export type { LifecycleMove, MoveRequest, Mover, OrderMove } from './model/order-lifecycle.js';
export { DEFAULT_STORE_STATE } from './model/store.js';
export type { StoreSettings } from './model/store.js';
export type { Session } from './model/session.js';
export { PAGING, pageOffset, toPage } from './model/page.js';
export type { PageRequest } from './model/page.js';
export { isRecord } from './model/validation.js';
export { menuDocumentOf, parseMenuDocument } from './model/menu-document.js';
export type { MenuDocumentOption, MenuDocumentOptionGroup, MenuDocumentProduct } from './model/menu-document.js';
export { SEARCH_LIMITS } from './search/normalize.js';
export { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, sessionIdOf } from './session-tokens.js';

// Ports: what adapters share to implement them alike (ids, idempotency and the outbox, the event
// log, the sliding window, the default clock and hours).
export { assignOptionIds, optionNameKey } from './model/option-ids.js';
export type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, IdempotencyRecord, InsertResult } from './ports/order-repository.js';
export { copyIdempotencyRecord } from './ports/order-repository.js';
export type { UnpublishedOrder } from './ports/order-repository.js';
export type { EventReplay, LogPosition, OrderEventListener } from './ports/order-event-log.js';
export { compareEventIds, eventOfVersion, isEventId, unpublishedEvents } from './model/order-event.js';
export type { OrderEventData, OrderEventType } from './model/order-event.js';
export { alwaysOpen } from './ports/opening-hours.js';
export type { MailMessage } from './ports/mailer.js';
export type { PasswordResetToken } from './ports/password-reset-tokens.js';
export type { RateLimitDecision } from './ports/rate-limiter.js';
export type { AbortSignalLike, AccessClaims, HashOptions } from './ports/security.js';
export { systemClock } from './ports/security.js';
export { systemTimers } from './timers.js';
export type { Timer, Timers } from './timers.js';
export { newId, OrderStamper, orderIdTime } from './ids.js';
export type { IdPrefix } from './ids.js';
export { bucketWidthMs, decideSlidingWindow, SLIDING_WINDOW_BUCKETS } from './rate-limit/sliding-window.js';
export type { WindowBuckets } from './rate-limit/sliding-window.js';
export { FallbackRateLimiter } from './rate-limit/fallback-rate-limiter.js';
export type { FallbackRateLimiterOptions, RateLimitDecider } from './rate-limit/fallback-rate-limiter.js';

// Outgoing webhooks: what the stores, the sender and the dispatcher share (the ports are at the root).
export {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_FAILING_DISABLE_MS,
  WEBHOOK_LIMITS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_RETENTION_MS,
  WEBHOOK_SECRET_OVERLAP_MS,
} from './webhooks/model.js';
export type {
  DeliveryOutcome,
  LeasedDelivery,
  WebhookDeliveryStatus,
  WebhookDeliveryType,
  WebhookEvent,
  WebhookEventType,
  WebhookSecret,
} from './webhooks/model.js';
export type {
  DeliveryListRequest,
  LeaseRequest,
  WebhookDeliveryStats,
  WebhookEndpointChanges,
  WebhookRequest,
  WebhookResponse,
} from './webhooks/ports.js';
export type { AddWebhookInput, ChangeWebhookInput, WebhookWithSecret } from './webhooks/admin.js';
export type { ManageWebhooks, ManageWebhooksDependencies } from './webhooks/manage-webhooks.js';
export type { WebhookDispatcher, WebhookDispatcherOptions, WebhookDispatcherPorts } from './webhooks/webhook-dispatcher.js';
export { BUSY_PAUSE_MS } from './webhooks/webhook-dispatcher.js';
export { WebhookHousekeeping } from './webhooks/webhook-housekeeping.js';
export type { SweepResult, WebhookHousekeepingOptions, WebhookHousekeepingPorts } from './webhooks/webhook-housekeeping.js';
export { HELD_BACK_RECHECK_MS, HELD_BACK_SOON_MS, LEASE_HELD_SCAN, LEASE_MAX_WINDOWS, leaseWindow } from './webhooks/lease-window.js';
export type { LeaseWindow } from './webhooks/lease-window.js';
export type { WebhookPayload } from './webhooks/webhook-events.js';
export type { Random } from './webhooks/retry-schedule.js';
export { isStaffRole } from './model/customer.js';
