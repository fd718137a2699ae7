/**
 * Orders in MongoDB: one document per order (`_id` = order id), listed from the (customerId,
 * createdAt, _id) index; key claims live in MongoIdempotencyKeys, and every holder of a key places
 * the order id reserved by its first claim, so `_id` makes a second order impossible. A kitchen
 * move is one findOneAndUpdate filtered on its planned version (atomic per document), the order's
 * payment and the history entry (with its payment note) written in the same update. The
 * collection is its own outbox (MongoOrderOutbox): `publishedVersion` and `eventsPending` are
 * written in the same document write as the change, and orders stored before events have neither
 * (docs/decisions.md).
 */
import type {
  Order,
  OrderRepository,
  OrderStatus,
  Page,
} from '@storefront/domain';
import type { InsertResult, OrderMove, PageRequest } from '@storefront/domain/adapter-kit';
import { toPage } from '@storefront/domain/adapter-kit';
import type { Collection, MatchKeysAndValues, MongoClient } from 'mongodb';
import { inCausalSession, readIn } from './causal-session.js';
import { toInsertedOrderDocument, toOrder, toStatusChange, type OrderDocument } from './order-mapper.js';
import { toPaymentDocument } from './payment-mapper.js';
import { countCustomerOrders, countOrdersByStatus, findCustomerOrders, findOrdersByStatus } from './order-queries.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export class MongoOrderRepository implements OrderRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly orders: Collection<OrderDocument>,
  ) {}

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
        ...(move.payment === undefined ? {} : { payment: toPaymentDocument(move.payment) }),
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
}
