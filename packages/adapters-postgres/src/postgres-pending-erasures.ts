/** Erasure marks in PostgreSQL: `erasure_requested_at` on the customers row (see PostgresCustomerRepository). */
import type { PendingErasures } from '@storefront/domain';
import type pg from 'pg';
import { copyDate } from './account-mappers.js';
import { databaseOperation } from './database-errors.js';

export class PostgresPendingErasures implements PendingErasures {
  constructor(private readonly pool: pg.Pool) {}

  mark(customerId: string, at: Date): Promise<boolean> {
    return databaseOperation(async () => {
      // COALESCE keeps an earlier mark: one statement, repeatable.
      const result = await this.pool.query('UPDATE customers SET erasure_requested_at = COALESCE(erasure_requested_at, $2) WHERE customer_id = $1', [customerId, copyDate(at)]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  list(limit: number): Promise<string[]> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ customer_id: string }>(
        'SELECT customer_id FROM customers WHERE erasure_requested_at IS NOT NULL ORDER BY erasure_requested_at, customer_id LIMIT $1',
        [limit],
      );
      return result.rows.map((row) => row.customer_id);
    });
  }
}
