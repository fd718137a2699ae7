/**
 * The outbox of the orders table: `published_version` below `version` marks an order's due events,
 * written by the same statement as the change (PostgresOrderRepository); the partial index
 * orders_outbox holds only those orders.
 */
import type { OrderOutbox } from '@storefront/domain';
import type { PublishedMark, UnpublishedOrder } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { toOrder, type OrderRow } from './order-mapper.js';
import { unpublishedOrdersQuery } from './order-queries.js';
import { databaseOperation } from './database-errors.js';

export class PostgresOrderOutbox implements OrderOutbox {
  constructor(private readonly pool: pg.Pool) {}

  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    return databaseOperation(async () => {
      if (!(limit >= 1)) return [];
      const { text, values } = unpublishedOrdersQuery(Math.floor(limit));
      const result = await this.pool.query<OrderRow & { published_version: number }>(text, values);
      return result.rows.map((row) => ({ order: toOrder(row), publishedVersion: row.published_version }));
    });
  }

  /** The marks of a batch in one UPDATE, with markPublished's conditions per order. */
  markAllPublished(marks: readonly PublishedMark[]): Promise<void> {
    return databaseOperation(async () => {
      if (marks.length === 0) return;
      await this.pool.query(
        `UPDATE orders o SET published_version = m.version
           FROM unnest($1::text[], $2::int[]) AS m(order_id, version)
          WHERE o.order_id = m.order_id AND o.published_version < m.version AND o.version >= m.version`,
        [marks.map((m) => m.orderId), marks.map((m) => m.version)],
      );
    });
  }

  markPublished(orderId: string, version: number): Promise<void> {
    return databaseOperation(async () => {
      // Raises the mark only: never lowers it, and never above the version the order has (a mark
      // ahead of the order would hide the changes to come).
      await this.pool.query('UPDATE orders SET published_version = $2 WHERE order_id = $1 AND published_version < $2 AND version >= $2', [
        orderId,
        version,
      ]);
    });
  }
}
