/**
 * The outbox of the orders collection: `eventsPending: true` flags an order whose version is above
 * its `publishedVersion`, written in the same document write as the change (MongoOrderRepository);
 * the partial index orders_outbox holds only the flagged orders.
 */
import type { OrderOutbox } from '@storefront/domain';
import type { PublishedMark, UnpublishedOrder } from '@storefront/domain/adapter-kit';
import type { Collection } from 'mongodb';
import { toOrder, type OrderDocument } from './order-mapper.js';
import { findUnpublishedOrders } from './order-queries.js';
import { databaseOperation } from './database-errors.js';

export class MongoOrderOutbox implements OrderOutbox {
  constructor(private readonly orders: Collection<OrderDocument>) {}

  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    return databaseOperation(async () => {
      // A limit of 0 would be no limit at all to MongoDB.
      if (!(limit >= 1)) return [];
      const documents = await findUnpublishedOrders(this.orders, Math.floor(limit)).toArray();
      return documents.map((document) => ({ order: toOrder(document), publishedVersion: document.publishedVersion ?? 0 }));
    });
  }

  /**
   * A relay's batch of marks in one command (one round trip): for each order both updates of
   * `markPublished`, unordered. They never both match: the first needs the version published, the
   * second a version above it, so whichever the order is at, one of them (or neither) applies.
   */
  markAllPublished(marks: readonly PublishedMark[]): Promise<void> {
    return databaseOperation(async () => {
      if (marks.length === 0) return;
      await this.orders.bulkWrite(
        marks.flatMap(({ orderId, version }) => [
          { updateOne: { filter: { _id: orderId, version }, update: { $set: { publishedVersion: version }, $unset: { eventsPending: '' as const } } } },
          { updateOne: { filter: { _id: orderId, version: { $gt: version }, publishedVersion: { $lt: version } }, update: { $set: { publishedVersion: version } } } },
        ]),
        { ordered: false },
      );
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
