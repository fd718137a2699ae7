/**
 * @storefront/domain/adapter-kit: what adapter authors share, apart from what an embedder uses (the
 * root, src/index.ts): the ids, sort orders, paging, idempotency records, outbox events and order
 * lifecycle that make every adapter of a port behave alike. Plumbing that is not the domain's is in
 * @storefront/adapter-support. No name is exported by both entry points.
 *
 * @packageDocumentation
 */

// Use cases, as types (createStorefront builds them), with the inputs and results a driving adapter
// (HTTP) names.
export type { Authenticate, AuthenticateDependencies } from './accounts/authenticate.js';
export type { CheckState, CheckStatus } from './status/check-status.js';
export type { GetCurrentCustomer } from './accounts/get-current-customer.js';
export type { ImportMenu } from './menu/import-menu.js';
export type { ListMenu } from './menu/list-menu.js';
export type { ListOrders, ListOrdersInput } from './orders/list-orders.js';
export type { Login, LoginDependencies } from './accounts/login.js';
export { LOGIN_EMAIL_CEILING_FACTOR } from './accounts/password-attempts.js';
export type { PasswordAttemptPolicies } from './accounts/password-attempts.js';
export type { Logout } from './accounts/logout.js';
export type { PageInput } from './shared/paging.js';
export type { PlaceOrder, PlaceOrderOptions } from './orders/place-order.js';
export type { CheckRateLimit } from './rate-limits/check-rate-limit.js';
export type { GetRateLimitStatus } from './rate-limits/get-rate-limit-status.js';
export type { RateLimitScope, RateLimitStatus, RateLimitSubject } from './rate-limits/rate-limits.js';
export type { RefreshSession, RefreshSessionDependencies } from './accounts/refresh-session.js';
export type { RegisterCustomer, RegisterCustomerInput } from './accounts/register-customer.js';
export type { SignUp, SignUpDependencies } from './accounts/sign-up.js';
export type { AccountPorts } from './accounts/account-ports.js';
export { PASSWORD_RESET_TTL_SECONDS, passwordResetMessage } from './accounts/password-reset.js';
export type { PasswordResetDependencies, PasswordResetMail } from './accounts/password-reset.js';
export type { ConfirmPasswordReset, ConfirmPasswordResetInput } from './accounts/confirm-password-reset.js';
export type { RequestPasswordReset, RequestPasswordResetInput } from './accounts/request-password-reset.js';
export { ERASED_CUSTOMER_LABEL } from './accounts/erase-account.js';
export type { EraseAccount, EraseAccountDependencies, EraseAccountInput } from './accounts/erase-account.js';
export type { LabelCustomers } from './accounts/label-customers.js';
export { BackgroundTasks } from './shared/background-tasks.js';
export { withFields } from './shared/objects.js';
export type { ErasureSweep, ErasureSweepOptions } from './accounts/erasure-sweep.js';
export type { BackgroundTaskOptions } from './shared/background-tasks.js';
export type { SearchMenu, SearchMenuInput } from './search/search-menu.js';
export type { SetCustomerDisabled } from './accounts/set-customer-disabled.js';
export type { CancelOrder } from './orders/cancel-order.js';
export type { GetOrder } from './orders/get-order.js';
export type { MoveOrder, MoveOrderInput } from './orders/move-order.js';
export type { ListKitchenOrders, ListKitchenOrdersInput } from './orders/list-kitchen-orders.js';
export type { SetCustomerRole } from './accounts/set-customer-role.js';
export type { GetStoreStatus } from './store/get-store-status.js';
export type { SetAcceptingOrders } from './store/set-accepting-orders.js';
export type { SetProductAvailability } from './store/set-product-availability.js';
export { STORE_STATE_CACHE_MS } from './store/store-gate.js';
export type { OrderEventRelay, OrderEventRelayOptions } from './orders/order-event-relay.js';
export type { Feed, OpenKitchenFeedInput, OpenOrderFeedInput, OrderFeeds } from './orders/order-feeds.js';

// Errors: building them as the use cases do.
export { validationFailed } from './shared/errors.js';
export type { DomainErrorOptions } from './shared/errors.js';

// Entities: drafts, limits, the orders lists follow, the order lifecycle, fulfilment, paging,
// sessions and the menu file format.
export { compareProducts, productNameKey, productNameKeys } from './menu/product.js';
export type { ProductDraft } from './menu/product.js';
export { OPTION_LIMITS } from './menu/option-group.js';
export type { Option, OptionDraft, OptionGroupDraft } from './menu/option-group.js';
export { emailOf, normalizeEmail } from './accounts/email.js';
export { isMoney } from './shared/money.js';
export { TEXT_RULE, textFits, type TextKind } from './shared/text.js';
export { compareKitchenOrders, compareOrders, withoutDeliveryAddress } from './orders/order.js';
export { copyDeliveryAddress, FULFILMENT_LIMITS, FULFILMENT_TYPES, legacyFulfilment, PICKUP_ASAP } from './fulfilment/fulfilment.js';
export type { FulfilmentRequest, FulfilmentType } from './fulfilment/fulfilment.js';
export { SlotGrid, isCalendarDate } from './fulfilment/slot-grid.js';
export type { Slot } from './fulfilment/slot-grid.js';
export type { SlotRefusal } from './fulfilment/slot-rules.js';
export type { AddressInput, FulfilmentInput } from './fulfilment/fulfilment-request.js';
export type { ListSlots, ListSlotsInput, OfferedSlot, SlotList } from './fulfilment/list-slots.js';
export type { QuoteDelivery } from './fulfilment/quote-delivery.js';
export { cheapestZone } from './fulfilment/delivery-zones.js';
export type { DeliveryZone } from './fulfilment/delivery-zones.js';
export type { OrderLineOption, OrderRequestLine, StatusChange } from './orders/order.js';
export {
  applyOrderMove,
  FINAL_STATUSES,
  findMove,
  isOrderStatus,
  OPEN_STATUSES,
  pathFromPlaced,
  placedBy,
  placedState,
  planMove,
  planPaymentChange,
  REASON_LIMITS,
} from './orders/order-lifecycle.js';
export type { LifecycleMove, MoveRequest, Mover, OrderMove } from './orders/order-lifecycle.js';
export { DEFAULT_STORE_STATE } from './store/store.js';
export type { StoreSettings } from './store/store.js';
export { productTaxRate, type TaxSettings } from './taxes/tax-settings.js';
export { taxRateOf, type TaxRate } from './taxes/tax-rate.js';
export type { Session } from './accounts/session.js';
export { PAGING, pageOffset, toPage } from './shared/page.js';
export type { PageRequest } from './shared/page.js';
export { isRecord } from './shared/validation.js';
export { menuDocumentOf, parseMenuDocument } from './menu/menu-document.js';
export type { MenuDocumentOption, MenuDocumentOptionGroup, MenuDocumentProduct } from './menu/menu-document.js';
export { SEARCH_LIMITS } from './search/normalize.js';
export { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, sessionIdOf } from './accounts/session-tokens.js';

// Ports: what adapters share to implement them alike (ids, idempotency and the outbox, the event
// log, the default clock and hours).
export { assignOptionIds, optionNameKey } from './menu/option-ids.js';
export type { InsertResult } from './orders/order-repository.js';
export type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, IdempotencyRecord } from './orders/idempotency-keys.js';
export { copyIdempotencyRecord, recordOfClaim } from './orders/idempotency-keys.js';
export type { KeyedOrderWrites } from './orders/keyed-order-writes.js';
export type { PublishedMark, UnpublishedOrder } from './orders/order-outbox.js';
export type { EventReplay, LogPosition, OrderEventListener } from './orders/order-event-log.js';
export { compareEventIds, eventOfVersion, isEventId, unpublishedEvents } from './orders/order-event.js';
export type { OrderEventData, OrderEventType } from './orders/order-event.js';
export { alwaysOpen } from './store/opening-hours.js';
export type { MailMessage } from './accounts/mailer.js';
export type { PasswordResetToken } from './accounts/password-reset-tokens.js';
export type { RateLimitDecision } from './rate-limits/rate-limiter.js';
export type { AbortSignalLike, AccessClaims, HashOptions } from './shared/security.js';
export { systemClock } from './shared/security.js';
export { systemTimers } from './shared/timers.js';
export type { Timer, Timers } from './shared/timers.js';
export { newId, OrderStamper, orderIdTime } from './shared/ids.js';
export type { IdPrefix } from './shared/ids.js';

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
export { WebhookHousekeeping } from './webhooks/webhook-housekeeping.js';
export type { SweepResult, WebhookHousekeepingOptions, WebhookHousekeepingPorts } from './webhooks/webhook-housekeeping.js';
export type { WebhookPayload } from './webhooks/webhook-events.js';
export type { Random } from './webhooks/retry-schedule.js';
export { isStaffRole } from './accounts/customer.js';
export { DEFAULT_SLOT_RULES } from './fulfilment/slot-rules.js';

// Payments: the provider port and the values it answers; the payment as the order keeps it.
export { InvalidPaymentRequest } from './payments/payment-gateway.js';
export type {
  AuthorizationRequest,
  AuthorizedPayment,
  AwaitingPayment,
  CanceledPayment,
  CancelReason,
  CancelRequest,
  CapturedPayment,
  CaptureRequest,
  DeclinedPayment,
  PaymentGateway,
  PaymentIntentOutcome,
  PaymentRequiringAction,
  PaymentStatus,
  ProcessingPayment,
  Refund,
  RefundCategory,
  RefundedPayment,
  RefundOutcome,
  RefundRequest,
  RefusedPaymentRequest,
} from './payments/payment-gateway.js';
export { paymentKeys } from './payments/payment-keys.js';
export { ORDER_PAYMENT_STATUSES, nextCheck, refundable, withRefunds } from './payments/order-payment.js';
export type { OrderPayment, OrderPaymentStatus, PaymentChangeNote, RefundRecord, RefundStatus } from './payments/order-payment.js';
export type { OrderPayments } from './payments/order-payments.js';
export { CANCELLATION_REFUND_ATTEMPTS, cancellationRefundId, PaymentDesk } from './payments/payment-desk.js';
export type { PaymentNews } from './payments/payment-settler.js';
export type { ProviderEventInput, ProviderEventResult } from './payments/take-provider-event.js';
export type { RefundOrderInput, RefundOrderResult } from './payments/refund-order.js';
export type { PaymentSweeperOptions } from './payments/payment-sweeper.js';
export { PROVIDER_EVENT_LEASE_MS } from './payments/provider-events.js';
export type { ProviderEvents } from './payments/provider-events.js';
