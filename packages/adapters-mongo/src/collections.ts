/**
 * Where each port keeps its documents, and the indexes the repositories' queries and atomic rules
 * rely on. Index names are fixed so that a duplicate key can be traced to the rule it broke, and so
 * that creating them again at every start is a no-op.
 */
import type { Db, IndexDescription } from 'mongodb';

export const COLLECTIONS = {
  products: 'products',
  meta: 'meta',
  orders: 'orders',
  idempotencyKeys: 'idempotency_keys',
  customers: 'customers',
  sessions: 'sessions',
  passwordResetTokens: 'password_reset_tokens',
  slotPlaces: 'slot_places',
  webhookEndpoints: 'webhook_endpoints',
  webhookDeliveries: 'webhook_deliveries',
  providerEvents: 'provider_events',
} as const;

export const INDEXES = {
  /** Names are unique on a menu regardless of case: upsertByName matches on it. */
  productName: 'products_by_name_key',
  /** The menu's stable order, so that list() reads in order instead of sorting. */
  productMenuOrder: 'products_menu_order',
  /** listByCustomer: equality on the customer, then already in (createdAt, _id) order. */
  ordersByCustomer: 'orders_by_customer',
  /**
   * listByStatus (the kitchen's queue): a few equalities on the status (`$in`), each already in
   * (promisedAt, createdAt, _id) order, which the server merges (SORT_MERGE) instead of sorting;
   * and the queue never reads the completed orders, which pile up in the other statuses. (It
   * replaces `orders_by_status`, keyed without promisedAt, which a database upgraded from before
   * keeps until dropped by hand: nothing reads it.)
   */
  ordersByStatus: 'orders_kitchen_queue',
  /**
   * listUnpublished (the outbox): only the orders with an unpublished change (partial on
   * `eventsPending: true`, which the last mark removes), least recently changed first; its size is
   * the backlog, not the store. Older orders without the flag are not in it.
   */
  ordersOutbox: 'orders_outbox',
  /**
   * findByIntent, and one order per provider intent: unique, partial on the intent id being a
   * string, so that orders without a payment (every order stored before payments) are not in it.
   */
  ordersByPaymentIntent: 'orders_by_payment_intent',
  /**
   * claimChecks (the payment sweeper): only the orders whose payment waits on the provider
   * (partial on `payment.checkAt` being a date; null is nothing to check), earliest first.
   */
  ordersPaymentChecks: 'orders_payment_checks',
  /** One record per customer and key: the unique rule that makes a claim atomic. */
  idempotencyKey: 'idempotency_keys_by_customer_key',
  idempotencyExpiry: 'idempotency_keys_expiry',
  customerEmail: 'customers_by_email',
  /** listErasuresPending (the erasure sweep): only the accounts being erased (partial), oldest mark first. */
  customersErasing: 'customers_erasing',
  sessionExpiry: 'sessions_expiry',
  /**
   * revokeAllOf (password reset, erasure): equality on the customer, then `revokedAt: null` checked
   * on the few sessions one customer has; without it every reset would scan every session.
   */
  sessionsByCustomer: 'sessions_by_customer',
  /** The TTL monitor removes spent-by-time tokens; readers still compare expiresAt with `now`. */
  resetTokenExpiry: 'password_reset_tokens_expiry',
  /** deleteAllOf (a reset done, an account erased). */
  resetTokensByCustomer: 'password_reset_tokens_by_customer',
  /** listed oldest first. */
  webhookEndpointsByCreation: 'webhook_endpoints_by_creation',
  /** One delivery per (endpoint, event): the unique rule that makes enqueue idempotent. */
  webhookDeliveryPerEvent: 'webhook_deliveries_once_per_event',
  /**
   * The lease's walk over the pending deliveries of the endpoints that can take them: per endpoint
   * (`$in`) by `readyAt`, merged (SORT_MERGE), partial on pending. It replaces
   * `webhook_deliveries_due` (readyAt, _id), which made every lease read the due deliveries of
   * disabled, busy and removed endpoints too; a database upgraded from before keeps that one until
   * dropped by hand: nothing reads it.
   */
  webhookDeliveriesDue: 'webhook_deliveries_due_by_endpoint',
  /** The TTL monitor removes finished deliveries past `expiresAt` (WEBHOOK_RETENTION_DAYS); the housekeeping's removeExpired reads it too. */
  webhookDeliveriesExpiry: 'webhook_deliveries_expiry',
  /** The lease's ordering probe: a pending lower version of the same endpoint and order. */
  webhookDeliveriesPendingOrder: 'webhook_deliveries_pending_order',
  /** An endpoint's deliveries newest first, all or of one status. */
  webhookDeliveriesByEndpoint: 'webhook_deliveries_by_endpoint',
  webhookDeliveriesByEndpointStatus: 'webhook_deliveries_by_endpoint_status',
  /** The stats' count and oldest pending delivery (hinted: the planner does not pick a partial index for `status` alone). */
  webhookDeliveriesPendingAge: 'webhook_deliveries_pending_age',
  /** One record per (provider, event id): the unique rule that makes a provider event's claim atomic. */
  providerEventOnce: 'provider_events_once',
  /** Retention's walk over completed events, oldest first (unfinished ones, completedAt null, sort before every date and are never read). */
  providerEventsCompleted: 'provider_events_completed',
} as const;

const SPECS: Readonly<Record<string, readonly IndexDescription[]>> = {
  [COLLECTIONS.products]: [
    { name: INDEXES.productName, key: { nameKey: 1 }, unique: true },
    { name: INDEXES.productMenuOrder, key: { category: 1, name: 1, _id: 1 } },
  ],
  [COLLECTIONS.orders]: [
    { name: INDEXES.ordersByCustomer, key: { customerId: 1, createdAt: 1, _id: 1 } },
    { name: INDEXES.ordersByStatus, key: { status: 1, promisedAt: 1, createdAt: 1, _id: 1 } },
    { name: INDEXES.ordersOutbox, key: { updatedAt: 1, _id: 1 }, partialFilterExpression: { eventsPending: true } },
    { name: INDEXES.ordersByPaymentIntent, key: { 'payment.intentId': 1 }, unique: true, partialFilterExpression: { 'payment.intentId': { $type: 'string' } } },
    { name: INDEXES.ordersPaymentChecks, key: { 'payment.checkAt': 1, _id: 1 }, partialFilterExpression: { 'payment.checkAt': { $type: 'date' } } },
  ],
  [COLLECTIONS.idempotencyKeys]: [
    { name: INDEXES.idempotencyKey, key: { customerId: 1, key: 1 }, unique: true },
    // The TTL monitor runs about once a minute: readers still treat a record past expiresAt as gone.
    { name: INDEXES.idempotencyExpiry, key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
  [COLLECTIONS.customers]: [
    { name: INDEXES.customerEmail, key: { email: 1 }, unique: true },
    { name: INDEXES.customersErasing, key: { erasureRequestedAt: 1, _id: 1 }, partialFilterExpression: { erasureRequestedAt: { $exists: true } } },
  ],
  [COLLECTIONS.sessions]: [
    { name: INDEXES.sessionExpiry, key: { expiresAt: 1 }, expireAfterSeconds: 0 },
    { name: INDEXES.sessionsByCustomer, key: { customerId: 1 } },
  ],
  [COLLECTIONS.passwordResetTokens]: [
    { name: INDEXES.resetTokenExpiry, key: { expiresAt: 1 }, expireAfterSeconds: 0 },
    { name: INDEXES.resetTokensByCustomer, key: { customerId: 1 } },
  ],
  [COLLECTIONS.webhookEndpoints]: [{ name: INDEXES.webhookEndpointsByCreation, key: { createdAt: 1, _id: 1 } }],
  [COLLECTIONS.webhookDeliveries]: [
    { name: INDEXES.webhookDeliveryPerEvent, key: { webhookId: 1, eventId: 1 }, unique: true },
    { name: INDEXES.webhookDeliveriesDue, key: { webhookId: 1, readyAt: 1, _id: 1 }, partialFilterExpression: { status: 'pending' } },
    { name: INDEXES.webhookDeliveriesExpiry, key: { expiresAt: 1 }, expireAfterSeconds: 0 },
    {
      name: INDEXES.webhookDeliveriesPendingOrder,
      key: { webhookId: 1, orderId: 1, orderVersion: 1 },
      partialFilterExpression: { status: 'pending', orderId: { $exists: true } },
    },
    { name: INDEXES.webhookDeliveriesByEndpoint, key: { webhookId: 1, createdAt: -1, _id: -1 } },
    { name: INDEXES.webhookDeliveriesByEndpointStatus, key: { webhookId: 1, status: 1, createdAt: -1, _id: -1 } },
    { name: INDEXES.webhookDeliveriesPendingAge, key: { createdAt: 1 }, partialFilterExpression: { status: 'pending' } },
  ],
  [COLLECTIONS.providerEvents]: [
    { name: INDEXES.providerEventOnce, key: { provider: 1, eventId: 1 }, unique: true },
    { name: INDEXES.providerEventsCompleted, key: { completedAt: 1 } },
  ],
};

export interface IndexOptions {
  /**
   * A replica set member or mongos: build new indexes with commitQuorum "majority". The server's
   * default ("votingMembers") waits for every voting member, so one member down would hold
   * start-up until it is back; a majority is what every write of the store waits for anyway. A
   * standalone server refuses the option.
   */
  readonly replicated: boolean;
}

/**
 * Creates every index (and so every collection), a no-op for indexes that already exist as
 * specified. A failure names the collection, its indexes and what a build waits for (IndexBuildError).
 */
export async function ensureIndexes(db: Db, options: IndexOptions): Promise<void> {
  const quorum = options.replicated ? { commitQuorum: 'majority' } : {};
  await Promise.all(
    Object.entries(SPECS).map(async ([collection, specs]) => {
      try {
        await db.collection(collection).createIndexes([...specs], quorum);
      } catch (error) {
        throw new IndexBuildError(collection, specs, options.replicated, error);
      }
    }),
  );
}

/**
 * Creating the indexes of one collection failed: the message says which, and what a build waits
 * for; the driver's error is the cause (what start-up classifies as worth retrying or not).
 */
export class IndexBuildError extends Error {
  override readonly name = 'IndexBuildError';

  constructor(collection: string, specs: readonly IndexDescription[], replicated: boolean, cause: unknown) {
    const names = specs.map((spec) => spec.name).join(', ');
    const waitsFor = replicated
      ? 'a new index is built on a majority of the replica set\'s voting members (commitQuorum "majority"): check that a majority is up and that the build is not still running (db.currentOp)'
      : 'check the server';
    super(`creating the indexes of ${collection} (${names}) failed: ${(cause as Error)?.message ?? String(cause)}; ${waitsFor}`, { cause });
  }
}
