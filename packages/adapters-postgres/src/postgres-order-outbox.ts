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
import { namedStatement, queryOf } from './named-statements.js';

/** markPublished's conditions, for each order of a batch. */
const MARK_ALL_PUBLISHED = namedStatement(
  'outbox_mark',
  `UPDATE orders o SET published_version = m.version
     FROM unnest($1::text[], $2::int[]) AS m(order_id, version)
    WHERE o.order_id = m.order_id AND o.published_version < m.version AND o.version >= m.version`,
);

export class PostgresOrderOutbox implements OrderOutbox {
  constructor(private readonly pool: pg.Pool) {}

  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    return databaseOperation(async () => {
      if (!(limit >= 1)) return [];
      const result = await this.pool.query<OrderRow & { published_version: number }>(unpublishedOrdersQuery(Math.floor(limit)));
      return result.rows.map((row) => ({ order: toOrder(row), publishedVersion: row.published_version }));
    });
  }

  /** The marks of a batch in one UPDATE. */
  markAllPublished(marks: readonly PublishedMark[]): Promise<void> {
    return databaseOperation(async () => {
      if (marks.length === 0) return;
      await this.pool.query(queryOf(MARK_ALL_PUBLISHED, [marks.map((m) => m.orderId), marks.map((m) => m.version)]));
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
