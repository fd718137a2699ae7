/**
 * Orders found by their payment (migration 10): by the intent's unique column, and the sweeper's
 * due checks. A claim is one statement, a queue in the manner of pg-boss: the due orders, earliest
 * first, are row-locked with SKIP LOCKED (a concurrent claimer passes over them, and re-checks a
 * row another one claimed meanwhile against its new check time), and their `payment_check_at`
 * moves to the lease. Neither the version nor the outbox's mark changes: a lease is no change of
 * the order.
 */
import type { Order } from '@storefront/domain';
import type { OrderPayments } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { ORDER_COLUMNS, toOrder, type OrderRow } from './order-mapper.js';
import { retryOnConflict } from './retry.js';

const CLAIM_CHECKS = `
WITH due AS (
  SELECT order_id, payment_check_at AS due_at FROM orders
   WHERE payment_check_at <= $1 ORDER BY payment_check_at, order_id LIMIT $3
   FOR NO KEY UPDATE SKIP LOCKED
), claimed AS (
  UPDATE orders o SET payment_check_at = $2 FROM due WHERE o.order_id = due.order_id
  RETURNING ${ORDER_COLUMNS.split(', ').map((column) => `o.${column}`).join(', ')}, due.due_at
)
SELECT ${ORDER_COLUMNS} FROM claimed ORDER BY due_at, order_id`;

export class PostgresOrderPayments implements OrderPayments {
  constructor(private readonly pool: pg.Pool) {}

  findByIntent(intentId: string): Promise<Order | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE payment_intent_id = $1`, [intentId]);
      const row = result.rows[0];
      return row === undefined ? null : toOrder(row);
    });
  }

  claimChecks(now: Date, leaseUntil: Date, limit: number): Promise<readonly Order[]> {
    return databaseOperation(async () => {
      if (!(limit >= 1)) return [];
      const result = await retryOnConflict(() => this.pool.query<OrderRow>(CLAIM_CHECKS, [now, leaseUntil, Math.floor(limit)]));
      return result.rows.map(toOrder);
    });
  }
}
