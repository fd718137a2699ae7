/**
 * The one factory of this package: every port backed by process memory, typed by the ports so that
 * the composition root can swap in another adapter set without noticing.
 */
import type {
  Clock,
  CustomerRepository,
  HealthProbe,
  IdempotencyKeys,
  MenuRepository,
  OrderEventLog,
  OrderOutbox,
  OrderRepository,
  PasswordResetTokenStore,
  PendingErasures,
  RateLimiter,
  SessionStore,
  SlotPlaces,
  StoreStateRepository,
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointStore,
} from '@storefront/domain';
import type { KeyedOrderWrites, OrderPayments, ProviderEvents } from '@storefront/domain/adapter-kit';
import { InMemoryCustomerRepository } from './in-memory-customer-repository.js';
import { InMemoryPendingErasures } from './in-memory-pending-erasures.js';
import { InMemoryMenuRepository } from './in-memory-menu-repository.js';
import { InMemoryOrderEventLog } from './in-memory-order-event-log.js';
import { InMemoryIdempotencyKeys } from './in-memory-idempotency-keys.js';
import { InMemoryOrderOutbox } from './in-memory-order-outbox.js';
import { InMemoryOrderPayments } from './in-memory-order-payments.js';
import { InMemoryOrderRepository } from './in-memory-order-repository.js';
import { InMemoryPaymentGateway } from './in-memory-payment-gateway.js';
import { InMemoryProviderEvents } from './in-memory-provider-events.js';
import { InMemoryPasswordResetTokenStore } from './in-memory-password-reset-token-store.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { InMemorySlotPlaces } from './in-memory-slot-places.js';
import { InMemoryStoreStateRepository } from './in-memory-store-state-repository.js';
import { InMemoryWebhookDeliveryLog } from './in-memory-webhook-delivery-log.js';
import { InMemoryWebhookDeliveryQueue } from './in-memory-webhook-delivery-queue.js';
import { InMemoryWebhookDeliveryUpkeep } from './in-memory-webhook-delivery-upkeep.js';
import { WebhookDeliveryRows } from './webhook-delivery-rows.js';
import { InMemoryWebhookEndpointStore } from './in-memory-webhook-endpoint-store.js';

export interface MemoryAdapterOptions {
  /** Drives the limiter, the session and reset token sweeps and the event log's window; tests pass a fake one. Default: the system clock. */
  readonly clock?: Clock | undefined;
}

export interface MemoryAdapters {
  readonly menu: MenuRepository;
  /** Orders; the key records and the outbox below read its rows (one store, as a database is). */
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  /** A fresh key's claim, order and completion in one step (the same key records and orders). */
  readonly keyedOrderWrites: KeyedOrderWrites;
  readonly orderOutbox: OrderOutbox;
  /** The orders by their card payment: the provider's events and the sweeper find them here. */
  readonly orderPayments: OrderPayments;
  readonly customers: CustomerRepository;
  /** The erasure marks, on the accounts above. */
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  /** Hashes of single-use password reset tokens; expired ones are swept as new ones are saved. */
  readonly resetTokens: PasswordResetTokenStore;
  readonly limiter: RateLimiter;
  /** Whether the kitchen has paused ordering: in memory, this process is every instance. */
  readonly storeState: StoreStateRepository;
  /** The order events the live streams read: in memory, delivered within this process. */
  readonly events: OrderEventLog;
  /** Places taken per slot, when slots have a capacity. */
  readonly slotPlaces: SlotPlaces;
  /**
   * Outgoing webhooks: the endpoints admins registered, and their deliveries (leased to this
   * process's dispatcher), three ports over one set of rows.
   */
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveryQueue: WebhookDeliveryQueue;
  readonly webhookDeliveryLog: WebhookDeliveryLog;
  readonly webhookDeliveryUpkeep: WebhookDeliveryUpkeep;
  /**
   * An extra, not a port createStorefront takes (yet): a card network in memory, for tests and the
   * demo of payments; the test plays the customer's browser and the provider's outages on it.
   */
  readonly payments: InMemoryPaymentGateway;
  /** An extra too (issue 35 item 5): the provider events taken in, each id once; not wired yet. */
  readonly providerEvents: ProviderEvents;
  /** `store` and `rate_limiter`; memory is always reachable, so both are always healthy. */
  readonly probes: readonly HealthProbe[];
}

const alwaysHealthy = (name: string): HealthProbe => ({ name, check: () => Promise.resolve() });

export function createMemoryAdapters(options: MemoryAdapterOptions = {}): MemoryAdapters {
  const { clock } = options;
  const orders = new InMemoryOrderRepository();
  const customers = new InMemoryCustomerRepository();
  const deliveries = new WebhookDeliveryRows();
  const keys = new InMemoryIdempotencyKeys(orders);
  return {
    menu: new InMemoryMenuRepository(),
    orders,
    idempotencyKeys: keys,
    keyedOrderWrites: keys,
    orderOutbox: new InMemoryOrderOutbox(orders),
    orderPayments: new InMemoryOrderPayments(orders),
    customers,
    pendingErasures: new InMemoryPendingErasures(customers),
    sessions: new InMemorySessionStore({ clock }),
    resetTokens: new InMemoryPasswordResetTokenStore({ clock }),
    limiter: new InMemoryRateLimiter({ clock }),
    storeState: new InMemoryStoreStateRepository(),
    events: new InMemoryOrderEventLog({ clock }),
    slotPlaces: new InMemorySlotPlaces(),
    webhookEndpoints: new InMemoryWebhookEndpointStore(),
    webhookDeliveryQueue: new InMemoryWebhookDeliveryQueue(deliveries),
    webhookDeliveryLog: new InMemoryWebhookDeliveryLog(deliveries),
    webhookDeliveryUpkeep: new InMemoryWebhookDeliveryUpkeep(deliveries),
    payments: new InMemoryPaymentGateway({ clock }),
    providerEvents: new InMemoryProviderEvents(),
    probes: [alwaysHealthy('store'), alwaysHealthy('rate_limiter')],
  };
}
