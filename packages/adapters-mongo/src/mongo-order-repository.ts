/**
 * Orders in MongoDB: one document per order (`_id` = order id), listed from the
 * (customerId, createdAt, _id) index, and Idempotency-Key claims in their own collection
 * (MongoIdempotencyKeys). A second order under one key cannot exist: every holder of a key places
 * the order id reserved by its first claim, and `_id` is unique. A write retried after a lost
 * acknowledgement (by the driver, or by the domain's protocol) finds its order stored and reads it.
 *
 * A kitchen move is one findOneAndUpdate filtered on the version it was planned on: the server
 * applies updates to one document atomically, so of two moves planned on one version only the
 * first matches, and the other finds nothing (null) without a read-then-write gap in between.
 *
 * The collection is its own outbox: an order's `publishedVersion` is its published mark, and
 * `eventsPending: true` flags an order whose version is above it. The insert and the move write
 * them in the same document write as the change (one document: atomic, no transaction), and the
 * partial index orders_outbox holds only the flagged orders. Orders stored before events have
 * neither field: their changes are not due, and a move of one publishes from that move on.
 */
import type {
  Order,
  OrderRepository,
  OrderStatus,
  Page,
} from '@storefront/domain';
import type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyKeyRef,
  InsertResult,
  OrderMove,
  PageRequest,
  UnpublishedOrder,
} from '@storefront/domain/adapter-kit';
import { toPage } from '@storefront/domain/adapter-kit';
import type { Collection, MatchKeysAndValues, MongoClient } from 'mongodb';
import { inCausalSession, readIn } from './causal-session.js';
import type { MongoIdempotencyKeys } from './mongo-idempotency-keys.js';
import { toInsertedOrderDocument, toOrder, toStatusChange, type OrderDocument } from './order-mapper.js';
import { countCustomerOrders, countOrdersByStatus, findCustomerOrders, findOrdersByStatus, findUnpublishedOrders } from './order-queries.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export class MongoOrderRepository implements OrderRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly orders: Collection<OrderDocument>,
    private readonly keys: MongoIdempotencyKeys,
  ) {}

  claimIdempotencyKey(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    return databaseOperation(() => this.keys.claim(claim, now));
  }

  takeOverIdempotencyKey(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean> {
    return databaseOperation(() => this.keys.takeOver(ref, from, owner, lockExpiresAt));
  }

  completeIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<boolean> {
    return databaseOperation(() => this.keys.complete(ref, owner));
  }

  abandonIdempotencyKey(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void> {
    return databaseOperation(() => this.keys.abandon(ref, owner, now));
  }

  releaseIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    return databaseOperation(() => this.keys.release(ref, owner));
  }

  insert(order: Order): Promise<InsertResult> {
    return databaseOperation(async () => {
      // The stored order is read in the refused insert's causal session (see causal-session.ts).
      return inCausalSession(this.client, async (session) => {
        try {
          await this.orders.insertOne(toInsertedOrderDocument(order), { session });
          return { order, inserted: true };
        } catch (error) {
          if (!isDuplicateKey(error, '_id_')) throw error;
        }
        const stored = await this.orders.findOne({ _id: order.orderId }, readIn(session, this.orders));
        if (stored === null) throw new Error(`order ${order.orderId} was refused as a duplicate but cannot be read`);
        return { order: toOrder(stored), inserted: false };
      });
    });
  }

  findOrder(customerId: string, orderId: string): Promise<Order | null> {
    return databaseOperation(async () => {
      const document = await this.orders.findOne({ _id: orderId, customerId });
      return document === null ? null : toOrder(document);
    });
  }

  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>> {
    return databaseOperation(async () => {
      const [documents, total] = await Promise.all([
        findCustomerOrders(this.orders, customerId, page).toArray(),
        countCustomerOrders(this.orders, customerId),
      ]);
      return toPage(documents.map(toOrder), total, page);
    });
  }

  findById(orderId: string): Promise<Order | null> {
    return databaseOperation(async () => {
      const document = await this.orders.findOne({ _id: orderId });
      return document === null ? null : toOrder(document);
    });
  }

  applyMove(move: OrderMove): Promise<Order | null> {
    return databaseOperation(async () => {
      const changes: MatchKeysAndValues<OrderDocument> = {
        status: move.status,
        version: move.fromVersion + 1,
        updatedAt: new Date(move.at.getTime()),
        ...(move.reason === undefined ? {} : { reason: move.reason }),
        eventsPending: true,
      };
      // The version in the filter is the compare-and-set: an order that moved on matches nothing.
      // `$min` keeps the mark (never above the version moved from) and gives an order stored before
      // events, which has none, the mark of the version it moves from: only this move is due.
      const document = await this.orders.findOneAndUpdate(
        { _id: move.orderId, version: move.fromVersion },
        { $set: changes, $min: { publishedVersion: move.fromVersion }, $push: { statusHistory: toStatusChange(move) } },
        { returnDocument: 'after' },
      );
      return document === null ? null : toOrder(document);
    });
  }

  eraseDeliveryAddresses(customerId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.orders.updateMany({ customerId, 'fulfilment.address': { $exists: true } }, { $unset: { 'fulfilment.address': '' } });
    });
  }

  listByStatus(statuses: readonly OrderStatus[], page: PageRequest): Promise<Page<Order>> {
    return databaseOperation(async () => {
      const [documents, total] = await Promise.all([
        findOrdersByStatus(this.orders, statuses, page).toArray(),
        countOrdersByStatus(this.orders, statuses),
      ]);
      return toPage(documents.map(toOrder), total, page);
    });
  }

  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    return databaseOperation(async () => {
      // A limit of 0 would be no limit at all to MongoDB.
      if (!(limit >= 1)) return [];
      const documents = await findUnpublishedOrders(this.orders, Math.floor(limit)).toArray();
      return documents.map((document) => ({ order: toOrder(document), publishedVersion: document.publishedVersion ?? 0 }));
    });
  }

  markPublished(orderId: string, version: number): Promise<void> {
    return databaseOperation(async () => {
      // Still at the version published (the usual case): its changes are all published.
      const published = await this.orders.updateOne(
        { _id: orderId, version },
        { $set: { publishedVersion: version }, $unset: { eventsPending: '' } },
      );
      if (published.matchedCount > 0) return;
      // Moved on since it was listed: raise the mark only, the newer versions stay due. An unknown
      // order, a lower mark and a version the order does not have yet match nothing.
      await this.orders.updateOne({ _id: orderId, version: { $gt: version }, publishedVersion: { $lt: version } }, { $set: { publishedVersion: version } });
    });
  }
}
