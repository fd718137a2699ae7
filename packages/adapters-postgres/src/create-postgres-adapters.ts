/**
 * The one factory of this package: every storage port on one PostgreSQL database, typed by the
 * ports so that the composition root can swap adapter sets without noticing. It assumes the schema
 * is migrated (`migrate(pool)`, run at start or by `storefront db migrate`) and checks that it is
 * not newer than this code. It never ends the pool: whoever made the pool owns it.
 */
import type {
  CustomerRepository,
  HealthProbe,
  IdempotencyKeys,
  MenuRepository,
  OrderOutbox,
  OrderRepository,
  PasswordResetTokenStore,
  PendingErasures,
  SessionStore,
  SlotPlaces,
  StoreStateRepository,
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointStore,
} from '@storefront/domain';
import type { KeyedOrderWrites, OrderPayments, ProviderEvents } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { PostgresCustomerRepository } from './postgres-customer-repository.js';
import { PostgresPendingErasures } from './postgres-pending-erasures.js';
import { PostgresIdempotencyKeys } from './postgres-idempotency-keys.js';
import { PostgresKeyedOrderWrites } from './postgres-keyed-order-writes.js';
import { PostgresMenuRepository } from './postgres-menu-repository.js';
import { PostgresOrderOutbox } from './postgres-order-outbox.js';
import { PostgresOrderPayments } from './postgres-order-payments.js';
import { PostgresOrderRepository } from './postgres-order-repository.js';
import { PostgresProviderEvents } from './postgres-provider-events.js';
import { PostgresPasswordResetTokenStore } from './postgres-password-reset-token-store.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { PostgresSlotPlaces } from './postgres-slot-places.js';
import { PostgresStoreStateRepository } from './postgres-store-state-repository.js';
import { PostgresWebhookDeliveryLog } from './postgres-webhook-delivery-log.js';
import { PostgresWebhookDeliveryQueue } from './postgres-webhook-delivery-queue.js';
import { PostgresWebhookDeliveryUpkeep } from './postgres-webhook-delivery-upkeep.js';
import { PostgresWebhookEndpointStore } from './postgres-webhook-endpoint-store.js';
import { assertSchemaSupported } from './migrate.js';
import { databaseOperation } from './database-errors.js';

export interface PostgresAdapterOptions {
  /** The pool to use; it stays the caller's (never ended here). */
  readonly pool: pg.Pool;
}

export interface PostgresAdapters {
  readonly menu: MenuRepository;
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  /** A fresh key's claim, order and completion in one statement. */
  readonly keyedOrderWrites: KeyedOrderWrites;
  readonly orderOutbox: OrderOutbox;
  readonly customers: CustomerRepository;
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  /** Hashes of single-use password reset tokens. */
  readonly resetTokens: PasswordResetTokenStore;
  readonly storeState: StoreStateRepository;
  /** Places taken per slot, shared by every instance on this database. */
  readonly slotPlaces: SlotPlaces;
  /** Outgoing webhooks: endpoints, and deliveries leased to one instance at a time (queue, log, upkeep: one table/collection). */
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveryQueue: WebhookDeliveryQueue;
  readonly webhookDeliveryLog: WebhookDeliveryLog;
  readonly webhookDeliveryUpkeep: WebhookDeliveryUpkeep;
  /** An extra, not a port createStorefront takes (yet): the provider events taken in, each id once (issue 35 item 5). */
  readonly providerEvents: ProviderEvents;
  /** An extra, like providerEvents: orders by their payment's intent, and the sweeper's due checks. */
  readonly orderPayments: OrderPayments;
  /** `store`: `SELECT 1` on the pool. */
  readonly probes: readonly HealthProbe[];
}

/**
 * Rejects with DomainError `database_unavailable` when the database cannot be reached, and with
 * SchemaTooNewError when its schema is newer than this code (an unmigrated one is refused too).
 */
export async function createPostgresAdapters({ pool }: PostgresAdapterOptions): Promise<PostgresAdapters> {
  await databaseOperation(() => assertSchemaSupported(pool));
  return {
    menu: new PostgresMenuRepository(pool),
    orders: new PostgresOrderRepository(pool),
    idempotencyKeys: new PostgresIdempotencyKeys(pool),
    orderOutbox: new PostgresOrderOutbox(pool),
    customers: new PostgresCustomerRepository(pool),
    pendingErasures: new PostgresPendingErasures(pool),
    sessions: new PostgresSessionStore(pool),
    resetTokens: new PostgresPasswordResetTokenStore(pool),
    storeState: new PostgresStoreStateRepository(pool),
    slotPlaces: new PostgresSlotPlaces(pool),
    keyedOrderWrites: new PostgresKeyedOrderWrites(pool),
    webhookEndpoints: new PostgresWebhookEndpointStore(pool),
    webhookDeliveryQueue: new PostgresWebhookDeliveryQueue(pool),
    webhookDeliveryLog: new PostgresWebhookDeliveryLog(pool),
    webhookDeliveryUpkeep: new PostgresWebhookDeliveryUpkeep(pool),
    providerEvents: new PostgresProviderEvents(pool),
    orderPayments: new PostgresOrderPayments(pool),
    probes: [postgresDatabaseProbe(pool)],
  };
}

/** `store`: one `SELECT 1` through the pool (a connection from it, and the server's answer). */
export function postgresDatabaseProbe(pool: pg.Pool): HealthProbe {
  return {
    name: 'store',
    check: async () => {
      await pool.query('SELECT 1');
    },
  };
}
