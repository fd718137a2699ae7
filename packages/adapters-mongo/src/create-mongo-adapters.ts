/**
 * The one factory of this package: every storage port on one MongoDB database, typed by the ports
 * so that the composition root can swap adapter sets without noticing. It creates its indexes
 * (a no-op when they exist), brings orders written by an older version up to date, and creates the
 * menu's revision counter; it never closes the client behind `db`: whoever made the client owns it.
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
import type { OrderPayments, ProviderEvents } from '@storefront/domain/adapter-kit';
import type { Db } from 'mongodb';
import { deploymentOn } from './client-settings.js';
import { COLLECTIONS, ensureIndexes } from './collections.js';
import { upgradeDatabase } from './upgrades.js';
import type { CustomerDocument } from './customer-mapper.js';
import type { IdempotencyDocument } from './idempotency-record.js';
import { MenuRevision, type MenuRevisionDocument } from './menu-revision.js';
import { MongoCustomerRepository } from './mongo-customer-repository.js';
import { MongoPendingErasures } from './mongo-pending-erasures.js';
import { MongoIdempotencyKeys } from './mongo-idempotency-keys.js';
import { MongoMenuRepository } from './mongo-menu-repository.js';
import { MongoOrderOutbox } from './mongo-order-outbox.js';
import { MongoOrderPayments } from './mongo-order-payments.js';
import { MongoOrderRepository } from './mongo-order-repository.js';
import { MongoPasswordResetTokenStore } from './mongo-password-reset-token-store.js';
import { MongoSessionStore } from './mongo-session-store.js';
import { MongoSlotPlaces, type SlotPlacesDocument } from './mongo-slot-places.js';
import { MongoProviderEvents, type ProviderEventDocument } from './mongo-provider-events.js';
import { MongoStoreStateRepository, type StoreStateDocument } from './mongo-store-state-repository.js';
import { MongoWebhookDeliveryLog } from './mongo-webhook-delivery-log.js';
import { MongoWebhookDeliveryQueue } from './mongo-webhook-delivery-queue.js';
import { MongoWebhookDeliveryUpkeep } from './mongo-webhook-delivery-upkeep.js';
import { MongoWebhookEndpointStore } from './mongo-webhook-endpoint-store.js';
import type { WebhookDeliveryDocument, WebhookEndpointDocument } from './webhook-mappers.js';
import type { OrderDocument } from './order-mapper.js';
import type { PasswordResetTokenDocument } from './password-reset-token-mapper.js';
import type { ProductDocument } from './product-mapper.js';
import type { SessionDocument } from './session-mapper.js';
import { databaseOperation } from './database-errors.js';

export interface MongoAdapterOptions {
  /** The database to use; its client stays the caller's. */
  readonly db: Db;
}

export interface MongoAdapters {
  readonly menu: MenuRepository;
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly orderOutbox: OrderOutbox;
  readonly customers: CustomerRepository;
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  /** Hashes of single-use password reset tokens; expired ones are removed by a TTL index. */
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
  /** Orders by their payment: found by the provider's intent, and their checks handed to one sweeper at a time. */
  readonly orderPayments: OrderPayments;
  /** `store`: a ping of the database. */
  readonly probes: readonly HealthProbe[];
}

/**
 * Rejects with DomainError `database_unavailable` when the database cannot be reached, and with
 * IndexBuildError (naming the collection and its indexes) when an index cannot be created.
 */
export async function createMongoAdapters({ db }: MongoAdapterOptions): Promise<MongoAdapters> {
  const revisions = new MenuRevision(db.collection<MenuRevisionDocument>(COLLECTIONS.meta));
  await databaseOperation(async () => {
    const { replicated } = await deploymentOn(db.client);
    await ensureIndexes(db, { replicated });
    await upgradeDatabase(db);
    await revisions.ensure();
  });
  const orders = db.collection<OrderDocument>(COLLECTIONS.orders);
  const deliveries = db.collection<WebhookDeliveryDocument>(COLLECTIONS.webhookDeliveries);
  const probe: HealthProbe = {
    name: 'store',
    check: async () => {
      await db.command({ ping: 1 });
    },
  };
  return {
    menu: new MongoMenuRepository(db.collection<ProductDocument>(COLLECTIONS.products), revisions),
    orders: new MongoOrderRepository(db.client, orders),
    idempotencyKeys: new MongoIdempotencyKeys(db.client, db.collection<IdempotencyDocument>(COLLECTIONS.idempotencyKeys), orders),
    orderOutbox: new MongoOrderOutbox(orders),
    customers: new MongoCustomerRepository(db.collection<CustomerDocument>(COLLECTIONS.customers)),
    pendingErasures: new MongoPendingErasures(db.collection<CustomerDocument>(COLLECTIONS.customers)),
    sessions: new MongoSessionStore(db.collection<SessionDocument>(COLLECTIONS.sessions)),
    resetTokens: new MongoPasswordResetTokenStore(db.collection<PasswordResetTokenDocument>(COLLECTIONS.passwordResetTokens)),
    storeState: new MongoStoreStateRepository(db.collection<StoreStateDocument>(COLLECTIONS.meta)),
    slotPlaces: new MongoSlotPlaces(db.collection<SlotPlacesDocument>(COLLECTIONS.slotPlaces)),
    webhookEndpoints: new MongoWebhookEndpointStore(db.collection<WebhookEndpointDocument>(COLLECTIONS.webhookEndpoints)),
    webhookDeliveryQueue: new MongoWebhookDeliveryQueue(deliveries),
    webhookDeliveryLog: new MongoWebhookDeliveryLog(deliveries),
    webhookDeliveryUpkeep: new MongoWebhookDeliveryUpkeep(deliveries),
    providerEvents: new MongoProviderEvents(db.collection<ProviderEventDocument>(COLLECTIONS.providerEvents)),
    orderPayments: new MongoOrderPayments(orders),
    probes: [probe],
  };
}
