/**
 * One call that wires every use case from a set of ports: what an embedder or the composition root
 * needs, without a DI container.
 */
import { MenuCatalog } from './menu/menu-catalog.js';
import type { CustomerRepository } from './accounts/customer-repository.js';
import type { PendingErasures } from './accounts/pending-erasures.js';
import type { HealthProbe } from './status/health.js';
import type { MenuRepository } from './menu/menu-repository.js';
import type { OrderRepository } from './orders/order-repository.js';
import type { Order } from './orders/order.js';
import type { IdempotencyKeys } from './orders/idempotency-keys.js';
import type { OrderOutbox } from './orders/order-outbox.js';
import type { RateLimiter, RateLimitPolicy } from './rate-limits/rate-limiter.js';
import type { Clock, PasswordHasher, TokenService } from './shared/security.js';
import { systemClock } from './shared/security.js';
import type { SessionStore } from './accounts/session-store.js';
import type { OpeningHours } from './store/opening-hours.js';
import { alwaysOpen } from './store/opening-hours.js';
import type { StoreStateRepository } from './store/store-state-repository.js';
import type { OrderEventLog } from './orders/order-event-log.js';
import type { DeliveryZones } from './fulfilment/delivery-zones.js';
import type { SlotPlaces } from './fulfilment/slot-places.js';
import { FulfilmentPlanner } from './fulfilment/fulfilment-planner.js';
import { DEFAULT_SLOT_RULES, type SlotRules } from './fulfilment/slot-rules.js';
import { ListSlots } from './fulfilment/list-slots.js';
import { QuoteDelivery } from './fulfilment/quote-delivery.js';
import { OrderEventRelay, type OrderEventRelayOptions } from './orders/order-event-relay.js';
import { OrderFeeds } from './orders/order-feeds.js';
import type { StoreSettings } from './store/store.js';
import { NO_TAX, type TaxSettings } from './taxes/tax-settings.js';
import { CancelOrder } from './orders/cancel-order.js';
import { GetOrder } from './orders/get-order.js';
import { MoveOrder } from './orders/move-order.js';
import { ListKitchenOrders } from './orders/list-kitchen-orders.js';
import { SetCustomerRole } from './accounts/set-customer-role.js';
import { GetStoreStatus } from './store/get-store-status.js';
import { SetAcceptingOrders } from './store/set-accepting-orders.js';
import { SetProductAvailability } from './store/set-product-availability.js';
import { StoreGate } from './store/store-gate.js';
import { Authenticate } from './accounts/authenticate.js';
import { CallerCache, type CallerCacheOptions } from './accounts/caller-cache.js';
import { CheckStatus } from './status/check-status.js';
import { GetCurrentCustomer } from './accounts/get-current-customer.js';
import { ImportMenu } from './menu/import-menu.js';
import { ListMenu } from './menu/list-menu.js';
import { ListOrders } from './orders/list-orders.js';
import { Login } from './accounts/login.js';
import { defaultLoginEmailPolicy } from './accounts/password-attempts.js';
import { Logout } from './accounts/logout.js';
import type { PlaceOrderOptions } from './orders/place-order.js';
import { PlaceOrder } from './orders/place-order.js';
import type { KeyedOrderWrites } from './orders/keyed-order-writes.js';
import { CheckRateLimit } from './rate-limits/check-rate-limit.js';
import { GetRateLimitStatus } from './rate-limits/get-rate-limit-status.js';
import { RefreshSession } from './accounts/refresh-session.js';
import { RegisterCustomer } from './accounts/register-customer.js';
import { SearchMenu } from './search/search-menu.js';
import { SetCustomerDisabled } from './accounts/set-customer-disabled.js';
import type { Mailer } from './accounts/mailer.js';
import type { PasswordResetTokenStore } from './accounts/password-reset-tokens.js';
import { BackgroundTasks, type BackgroundTaskOptions } from './shared/background-tasks.js';
import { EraseAccount } from './accounts/erase-account.js';
import { LabelCustomers } from './accounts/label-customers.js';
import { ErasureSweep, type ErasureSweepOptions } from './accounts/erasure-sweep.js';
import type { PaymentGateway } from './payments/payment-gateway.js';
import type { OrderPayments } from './payments/order-payments.js';
import type { ProviderEvents } from './payments/provider-events.js';
import { PaymentDesk } from './payments/payment-desk.js';
import { PaymentSettler } from './payments/payment-settler.js';
import { PaymentSweeper, type PaymentSweeperOptions } from './payments/payment-sweeper.js';
import { RefundOrder } from './payments/refund-order.js';
import { TakeProviderEvent } from './payments/take-provider-event.js';
import { ConfirmPasswordReset } from './accounts/confirm-password-reset.js';
import type { PasswordResetDependencies } from './accounts/password-reset.js';
import { RequestPasswordReset } from './accounts/request-password-reset.js';
import { SignUp } from './accounts/sign-up.js';
import type { WebhookAdministration } from './webhooks/admin.js';
import { EndpointDirectory, ENDPOINT_CACHE_MS } from './webhooks/endpoint-directory.js';
import { ManageWebhooks } from './webhooks/manage-webhooks.js';
import type { WebhookDeliveryLog, WebhookDeliveryQueue, WebhookDeliveryUpkeep, WebhookEndpointStore, WebhookSender, WebhookUrlPolicy } from './webhooks/ports.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';
import { WebhookHousekeeping, type WebhookHousekeepingOptions } from './webhooks/webhook-housekeeping.js';
import { plainWebhookPayload, type WebhookPayload } from './webhooks/webhook-events.js';
import { WebhookFeed } from './webhooks/webhook-feed.js';

/** Every port the use cases need: one adapter each (see `createMemoryAdapters`, `createCryptoAdapters`). */
export interface StorefrontPorts {
  readonly menu: MenuRepository;
  readonly orders: OrderRepository;
  /** The Idempotency-Key records of order placement. */
  readonly idempotencyKeys: IdempotencyKeys;
  /** The order changes not yet published as events (kept by the orders' store). */
  readonly orderOutbox: OrderOutbox;
  /** A fresh key's claim, order and completion in one write, where the store offers it. */
  readonly keyedOrderWrites?: KeyedOrderWrites;
  readonly customers: CustomerRepository;
  /** Accounts whose erasure is requested and not finished (kept on the account records). */
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  /** Password reset tokens, stored hashed. */
  readonly resetTokens: PasswordResetTokenStore;
  /**
   * Sends the password reset emails (SMTP, or the log in memory mode: `@storefront/adapters-mail`).
   * Absent: reset requests are still answered alike, and each one that would send an email is
   * reported to `StorefrontOptions.background.onError` instead.
   */
  readonly mailer?: Mailer;
  readonly limiter: RateLimiter;
  /** Whether the kitchen has paused ordering, shared by every instance. */
  readonly storeState: StoreStateRepository;
  /** The log the live order streams read: in-process in memory mode, shared by every instance otherwise. */
  readonly events: OrderEventLog;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly clock?: Clock;
  /** The areas the store delivers to; absent: no delivery (`delivery_unavailable`). */
  readonly deliveryZones?: DeliveryZones;
  /** Places taken per slot, shared by every instance; required when `fulfilment.capacity` is set. */
  readonly slotPlaces?: SlotPlaces;
  /** Dependencies reported by the status check, e.g. `store` and `rate_limiter`. */
  readonly probes?: readonly HealthProbe[];
  /**
   * Outgoing webhooks (the factories of the store adapters return these four under these names).
   * Absent: no webhooks (`Storefront.webhooks` is undefined and the outbox feeds only the log).
   */
  readonly webhookEndpoints?: WebhookEndpointStore;
  /** The deliveries to send: enqueued, leased, recorded. */
  readonly webhookDeliveryQueue?: WebhookDeliveryQueue;
  /** The deliveries as the admin reads and retries them. */
  readonly webhookDeliveryLog?: WebhookDeliveryLog;
  /** Retention, removed endpoints' deliveries, erased payloads. */
  readonly webhookDeliveryUpkeep?: WebhookDeliveryUpkeep;
  /** Sends the deliveries (`@storefront/adapters-webhooks`); absent: deliveries are kept, pending, and no dispatcher is made. */
  readonly webhookSender?: WebhookSender;
  /** The address rules at registration; absent: every URL of the right shape is taken (the sender still checks its own). */
  readonly webhookUrlPolicy?: WebhookUrlPolicy;
  /**
   * Card payments (DECISIONS "Payments"): the provider, the orders found by their payment, and the
   * provider's events taken. Absent: customers pay on pickup or delivery (`payment: null`).
   */
  readonly paymentGateway?: PaymentGateway;
  readonly orderPayments?: OrderPayments;
  readonly providerEvents?: ProviderEvents;
}

/** Tunables of card payments. */
export interface PaymentOptions {
  /** How long a customer has to pay (PAYMENT_WINDOW_MINUTES). Default 15 minutes. */
  readonly windowMs?: number;
  /** The sweeper of payments without news (period, lease, batch). */
  readonly sweeper?: PaymentSweeperOptions;
}

/** Tunables of outgoing webhooks. */
export interface WebhookOptions {
  /** `http://` endpoint URLs taken (WEBHOOK_ALLOW_HTTP). Default false: https only. */
  readonly allowHttp?: boolean;
  /** The `data` of an order event's body (the app gives the HTTP shapes). Default: the event's own fields. */
  readonly payload?: WebhookPayload;
  /** Concurrency, lease, poll period, jitter and hooks of the dispatcher. */
  readonly dispatcher?: WebhookDispatcherOptions;
  /** How long the endpoint list is kept between reads of the store (other instances' changes are seen within it). Default 1,000 ms. */
  readonly endpointCacheMs?: number;
  /** How long a delivered or failed delivery is kept (WEBHOOK_RETENTION_DAYS). Default 30 days. */
  readonly retentionMs?: number;
  /** The sweep of expired and orphaned deliveries (run with the dispatcher). */
  readonly housekeeping?: WebhookHousekeepingOptions;
}

/** Policies and tunables; every field has a default. */
export interface StorefrontOptions {
  /** Every request of a caller. Default 120 per 60 s. */
  readonly requestPolicy?: RateLimitPolicy;
  /** Login attempts per client. Default 10 per 60 s. */
  readonly loginPolicy?: RateLimitPolicy;
  /**
   * Login attempts per email, from any clients: the bound on distributed guessing, well above the
   * per-client limit so that nobody can lock a customer out. Default 10 times `loginPolicy`'s count.
   */
  readonly loginEmailPolicy?: RateLimitPolicy;
  /**
   * Requests that only read the service's state (status, quota), per client address and per
   * endpoint, instead of the caller's quota. Default 600 per 60 s.
   */
  readonly pollPolicy?: RateLimitPolicy;
  readonly orders?: PlaceOrderOptions;
  /**
   * The session and customer of a token kept per instance for `ttlMs` (a shared database's round
   * trips); revocations made through this storefront clear it at once. Default off.
   */
  readonly callerCache?: CallerCacheOptions;
  /** The store's name and currency. Default `Storefront`, `USD`. */
  readonly store?: Partial<StoreSettings>;
  /** When the store takes orders by the clock. Default: always open, in UTC. */
  readonly openingHours?: OpeningHours;
  /** Slot length, lead times, horizon and capacity (DEFAULT_SLOT_RULES for what is not given). */
  readonly fulfilment?: Partial<SlotRules>;
  /** The relay that publishes stored order changes to the event log (sweep period, failure hooks). */
  readonly events?: OrderEventRelayOptions;
  /** Sign-ups per client. Default 5 per hour. */
  readonly registerPolicy?: RateLimitPolicy;
  /** Password reset requests, per client and per email. Default: the login policy's numbers. */
  readonly resetPolicy?: RateLimitPolicy;
  /**
   * The page of the operator's front end that takes a reset token: the email links to it with the
   * token appended. Default `http://localhost:3000/reset-password?token=` (a demo: set it in production).
   */
  readonly passwordResetUrl?: string;
  /** Work a request starts without waiting for it (the reset emails): its bound and failure report. */
  readonly background?: BackgroundTaskOptions;
  /** Outgoing webhooks (used when the webhook stores are given). */
  readonly webhooks?: WebhookOptions;
  /** The sweep that finishes erasures a stopped process left behind (period, batch size). */
  readonly erasures?: ErasureSweepOptions;
  /** Card payments (used when the payment ports are given). */
  readonly payments?: PaymentOptions;
}

/** 120 requests per caller per sliding 60 s. */
export const DEFAULT_REQUEST_POLICY: RateLimitPolicy = { name: 'default', limit: 120, windowSeconds: 60 };
/** 10 login attempts per client, and per email, per sliding 60 s. */
export const DEFAULT_LOGIN_POLICY: RateLimitPolicy = { name: 'login', limit: 10, windowSeconds: 60 };
/** 600 status or quota reads per client and endpoint per sliding 60 s: 10 a second, far above any health check. */
export const DEFAULT_POLL_POLICY: RateLimitPolicy = { name: 'poll', limit: 600, windowSeconds: 60 };
/** 5 sign-ups per client per sliding hour. */
export const DEFAULT_REGISTER_POLICY: RateLimitPolicy = { name: 'register', limit: 5, windowSeconds: 3600 };
/** Where a reset email links when the operator has not said: the demo's own address. */
export const DEFAULT_PASSWORD_RESET_URL = 'http://localhost:3000/reset-password?token=';

/** Every use case, wired: call `storefront.<useCase>.execute(input)`. */
export interface Storefront {
  readonly listMenu: ListMenu;
  readonly searchMenu: SearchMenu;
  readonly placeOrder: PlaceOrder;
  readonly listOrders: ListOrders;
  readonly login: Login;
  readonly refreshSession: RefreshSession;
  readonly logout: Logout;
  readonly authenticate: Authenticate;
  readonly getCurrentCustomer: GetCurrentCustomer;
  readonly checkRateLimit: CheckRateLimit;
  readonly getRateLimitStatus: GetRateLimitStatus;
  /** The limit of requests that only read the service's state (see `StorefrontOptions.pollPolicy`). */
  readonly checkPollLimit: CheckRateLimit;
  readonly checkStatus: CheckStatus;
  readonly registerCustomer: RegisterCustomer;
  readonly setCustomerDisabled: SetCustomerDisabled;
  readonly importMenu: ImportMenu;
  readonly setCustomerRole: SetCustomerRole;
  /** An order, to its owner or the kitchen. */
  readonly getOrder: GetOrder;
  /** The owner cancels an order not yet accepted. */
  readonly cancelOrder: CancelOrder;
  /** The kitchen moves an order along its lifecycle. */
  readonly moveOrder: MoveOrder;
  /** A staff refund of a captured payment (payments on; otherwise every refund is `refund_exceeds_captured`). */
  readonly refundOrder: RefundOrder;
  /** The provider's verified events (payments on). */
  readonly takeProviderEvent: TakeProviderEvent | undefined;
  /** Settles payments whose news never came: start it with the service, stop it before closing the adapters (payments on). */
  readonly paymentSweeper: PaymentSweeper | undefined;
  /** The kitchen's queue, by status. */
  readonly listKitchenOrders: ListKitchenOrders;
  readonly setProductAvailability: SetProductAvailability;
  readonly setAcceptingOrders: SetAcceptingOrders;
  readonly getStoreStatus: GetStoreStatus;
  /** How orders are taxed (`store.taxes`): what a product without a rate of its own is taxed at. */
  readonly taxes: TaxSettings;
  /** The offered slots of a day. */
  readonly listSlots: ListSlots;
  /** The delivery zone, fee and minimum order of a point. */
  readonly quoteDelivery: QuoteDelivery;
  /**
   * Publishes stored order changes to the event log. Changes made through this storefront are
   * published at once; `start()` adds the sweep that retries what could not be (call `stop()`
   * before closing the adapters).
   */
  readonly orderEvents: OrderEventRelay;
  /** Live feeds of order events: the kitchen's and one order's, resumable by event id. */
  readonly orderFeeds: OrderFeeds;
  /** A customer signs up: a new account, logged in. */
  readonly signUp: SignUp;
  /** Asks for a reset email; answered alike whatever the email (the work runs in `background`). */
  readonly requestPasswordReset: RequestPasswordReset;
  /** A reset email's token and a new password: every session of the account revoked. */
  readonly confirmPasswordReset: ConfirmPasswordReset;
  /** The caller erases their account (password asked again); orders stay. */
  readonly eraseAccount: EraseAccount;
  /**
   * Finishes the erasures a stopped process left behind. Not started here: `start()` it once the
   * store serves (it sweeps at once, then periodically) and `stop()` it with the service.
   */
  readonly erasureSweep: ErasureSweep;
  /** Order customers as the kitchen's books show them: the email, or `deleted`. */
  readonly labelCustomers: LabelCustomers;
  /**
   * Work started by requests and not awaited by them (the reset emails). `settled()` resolves once
   * it is done: await it (bounded) on shutdown, before closing the adapters.
   */
  readonly background: BackgroundTasks;
  /** What an admin does with webhooks; undefined without the webhook stores. */
  readonly webhooks: WebhookAdministration | undefined;
  /**
   * Sends the webhook deliveries; undefined without the webhook stores and sender. Not started
   * here: `start()` it with the service and `stop()` it before closing the adapters.
   */
  readonly webhookDispatcher: WebhookDispatcher | undefined;
  /** Removes expired and orphaned deliveries; started and stopped by the dispatcher. */
  readonly webhookHousekeeping: WebhookHousekeeping | undefined;
}

/**
 * Wires every use case from `ports`. The returned object holds no I/O of its own: closing the
 * adapters (if they need it) is the caller's business.
 *
 * @example
 * ```ts
 * const storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters() });
 * ```
 */
export function createStorefront(ports: StorefrontPorts, options: StorefrontOptions = {}): Storefront {
  const clock = ports.clock ?? systemClock;
  const requestPolicy = options.requestPolicy ?? DEFAULT_REQUEST_POLICY;
  const loginPolicy = options.loginPolicy ?? DEFAULT_LOGIN_POLICY;
  const loginEmailPolicy = options.loginEmailPolicy ?? defaultLoginEmailPolicy(loginPolicy);
  const catalog = new MenuCatalog(ports.menu);
  const gate = new StoreGate(
    ports.storeState,
    options.openingHours ?? alwaysOpen(),
    { name: options.store?.name ?? 'Storefront', currency: options.store?.currency ?? 'USD', taxes: options.store?.taxes ?? NO_TAX },
    clock,
  );
  const { hasher, tokens, limiter } = ports;
  // With a caller cache, every write that can revoke goes through its watch and clears it.
  const callers = (options.callerCache?.ttlMs ?? 0) > 0 ? new CallerCache(ports.sessions, ports.customers, clock, options.callerCache) : null;
  const customers = callers?.watchCustomers(ports.customers) ?? ports.customers;
  const sessions = callers?.watchSessions(ports.sessions) ?? ports.sessions;
  const pendingErasures = callers?.watchErasures(ports.pendingErasures) ?? ports.pendingErasures;
  const planner = new FulfilmentPlanner({
    hours: gate.hours,
    rules: { ...DEFAULT_SLOT_RULES, ...options.fulfilment },
    clock,
    zones: ports.deliveryZones ?? null,
    places: ports.slotPlaces ?? null,
    orders: ports.orders,
  });
  const webhooks = wireWebhooks(ports, options.webhooks ?? {}, clock);
  const orderEvents = new OrderEventRelay(ports.orderOutbox, ports.events, options.events, webhooks?.feed ?? null);
  const stored = (placed?: Order): void => orderEvents.notify(placed);
  const background = new BackgroundTasks(options.background);
  const payments = wirePayments(ports, options.payments ?? {}, { clock, stored, planner, background });
  const desk = payments?.desk ?? null;
  const passwordReset: PasswordResetDependencies = {
    customers,
    sessions,
    hasher,
    limiter,
    clock,
    resetTokens: ports.resetTokens,
    mailer: ports.mailer,
    mail: { storeName: gate.settings.name, linkBase: options.passwordResetUrl ?? DEFAULT_PASSWORD_RESET_URL },
    resetPolicy: options.resetPolicy ?? { ...loginPolicy, name: 'password-reset' },
    background,
  };
  const eraseAccount = new EraseAccount({
    ...{ customers, sessions, hasher, limiter, clock, loginPolicy, loginEmailPolicy, background },
    ...{ resetTokens: ports.resetTokens, erasures: pendingErasures, orders: ports.orders, events: ports.events },
    webhooks: webhooks && { deliveries: webhooks.upkeep, payload: webhooks.payload },
  });
  return {
    listMenu: new ListMenu(catalog),
    searchMenu: new SearchMenu(catalog),
    placeOrder: new PlaceOrder(ports.menu, ports.orders, ports.idempotencyKeys, clock, gate, planner, { ...options.orders, taxes: gate.settings.taxes, payments: desk }, stored, ports.keyedOrderWrites ?? null),
    listOrders: new ListOrders(ports.orders),
    login: new Login({ customers, sessions, hasher, tokens, limiter, clock, loginPolicy, loginEmailPolicy }),
    refreshSession: new RefreshSession({ customers, sessions, tokens, clock }),
    logout: new Logout(sessions, clock),
    authenticate: new Authenticate({ customers, sessions, tokens, ...(callers && { callers }) }),
    getCurrentCustomer: new GetCurrentCustomer(),
    checkRateLimit: new CheckRateLimit(limiter, requestPolicy),
    getRateLimitStatus: new GetRateLimitStatus(limiter, requestPolicy),
    checkPollLimit: new CheckRateLimit(limiter, options.pollPolicy ?? DEFAULT_POLL_POLICY),
    checkStatus: new CheckStatus(ports.probes ?? [], clock),
    registerCustomer: new RegisterCustomer(customers, hasher, clock),
    setCustomerDisabled: new SetCustomerDisabled(customers),
    importMenu: new ImportMenu(ports.menu, catalog),
    setCustomerRole: new SetCustomerRole(customers),
    getOrder: new GetOrder(ports.orders),
    cancelOrder: new CancelOrder(ports.orders, clock, stored, planner, desk),
    moveOrder: new MoveOrder(ports.orders, clock, stored, planner, desk),
    refundOrder: new RefundOrder(ports.orders, desk, clock, stored),
    takeProviderEvent: payments?.intake,
    paymentSweeper: payments?.sweeper,
    listKitchenOrders: new ListKitchenOrders(ports.orders),
    setProductAvailability: new SetProductAvailability(ports.menu),
    setAcceptingOrders: new SetAcceptingOrders(gate),
    getStoreStatus: new GetStoreStatus(gate),
    taxes: gate.settings.taxes,
    listSlots: new ListSlots(planner, gate.hours.timeZone, clock),
    quoteDelivery: new QuoteDelivery(planner),
    orderEvents,
    orderFeeds: new OrderFeeds(ports.events, ports.orders),
    signUp: new SignUp({ customers, sessions, hasher, tokens, limiter, clock, registerPolicy: options.registerPolicy ?? DEFAULT_REGISTER_POLICY }),
    requestPasswordReset: new RequestPasswordReset(passwordReset),
    confirmPasswordReset: new ConfirmPasswordReset(passwordReset),
    eraseAccount,
    erasureSweep: new ErasureSweep(pendingErasures, (customerId) => eraseAccount.finish(customerId), background, options.erasures),
    labelCustomers: new LabelCustomers(customers),
    background,
    webhooks: webhooks?.admin,
    webhookDispatcher: webhooks?.dispatcher,
    webhookHousekeeping: webhooks?.housekeeping,
  };
}

/** The payment side when its ports are given: the desk the order use cases call, the events' intake, the sweeper. */
function wirePayments(
  ports: StorefrontPorts,
  options: PaymentOptions,
  deps: { readonly clock: Clock; readonly stored: () => void; readonly planner: FulfilmentPlanner; readonly background: BackgroundTasks },
) {
  const { paymentGateway: gateway, orderPayments, providerEvents } = ports;
  if (gateway === undefined || orderPayments === undefined || providerEvents === undefined) return undefined;
  const desk = new PaymentDesk(gateway, options.windowMs ?? 15 * 60_000);
  const settler = new PaymentSettler(ports.orders, deps.clock, deps.stored, deps.planner);
  return {
    desk,
    intake: new TakeProviderEvent(gateway.provider, providerEvents, orderPayments, settler, deps.clock),
    sweeper: new PaymentSweeper(orderPayments, desk, settler, deps.clock, deps.background, options.sweeper),
  };
}

/** The webhook side when its stores are given: the admin use case, the outbox's feed, and the dispatcher when there is a sender. */
function wireWebhooks(ports: StorefrontPorts, options: WebhookOptions, clock: Clock) {
  const { webhookEndpoints: endpoints, webhookDeliveryQueue: queue, webhookDeliveryLog: log, webhookDeliveryUpkeep: upkeep, webhookSender: sender } = ports;
  if (endpoints === undefined || queue === undefined || log === undefined || upkeep === undefined) return undefined;
  const directory = new EndpointDirectory(endpoints, clock, options.endpointCacheMs ?? ENDPOINT_CACHE_MS);
  const housekeeping = new WebhookHousekeeping({ endpoints, deliveries: upkeep, clock }, options.housekeeping);
  const dispatcherOptions = { ...options.dispatcher, ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }) };
  const dispatcher =
    sender === undefined ? undefined : new WebhookDispatcher({ endpoints, deliveries: queue, sender, directory, clock, housekeeping }, dispatcherOptions);
  const wake = (): void => dispatcher?.notify();
  const admin = new ManageWebhooks({
    ...{ endpoints, queue, log, upkeep },
    urlPolicy: ports.webhookUrlPolicy ?? { check: () => Promise.resolve(null) },
    clock,
    allowHttp: options.allowHttp ?? false,
    changed: () => {
      directory.invalidate();
      wake();
    },
  });
  const payload = options.payload ?? plainWebhookPayload;
  const feed = new WebhookFeed(directory, queue, payload, wake);
  return { admin, feed, dispatcher, housekeeping, upkeep, payload };
}
