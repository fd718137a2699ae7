/**
 * Whether the dense list positions match what they stand for: for each list (a customer's orders,
 * a status's, the open ones), position k is the k-th order by (created_at, order_id) in a customer's
 * list and by (promised_at, created_at, order_id) in the kitchen's, and the
 * list's size is its number of orders. Answers the lists that disagree (none when all is well).
 *
 * Positions are given by readers (migration 3): every list is read first, as a reader would, so
 * that the orders waiting for a position get theirs; an order left without one counts as out of place.
 */
import type pg from 'pg';
import { numberCustomerList, numberKitchenLists } from '../src/list-numbering.js';

const CHECKS = `
WITH ranked AS (
  SELECT customer_id, status, customer_seq, status_seq, open_seq, storefront_order_is_open(status) AS open,
         row_number() OVER (PARTITION BY customer_id ORDER BY created_at, order_id) AS customer_rank,
         row_number() OVER (PARTITION BY status ORDER BY promised_at, created_at, order_id) AS status_rank,
         row_number() OVER (PARTITION BY storefront_order_is_open(status) ORDER BY promised_at, created_at, order_id) AS open_rank
    FROM orders
), counted AS (
  SELECT 'customer:' || customer_id AS list, count(*) AS size FROM orders GROUP BY customer_id
  UNION ALL SELECT 'status:' || status, count(*) FROM orders GROUP BY status
  UNION ALL SELECT 'open', count(*) FROM orders WHERE storefront_order_is_open(status)
)
SELECT DISTINCT 'customer:' || customer_id AS list FROM ranked WHERE customer_seq IS DISTINCT FROM customer_rank
UNION SELECT DISTINCT 'status:' || status FROM ranked WHERE status_seq IS DISTINCT FROM status_rank
UNION SELECT 'open' FROM ranked WHERE (open AND open_seq IS DISTINCT FROM open_rank) OR (NOT open AND open_seq IS NOT NULL)
UNION SELECT coalesce(s.list, c.list) || ' (size)' FROM order_list_sizes s FULL JOIN counted c ON c.list = s.list
 WHERE coalesce(s.size, 0) <> coalesce(c.size, 0)`;

/** `numberWaiting: false` checks the positions as they are, the waiting orders counted as out of place. */
export async function listsOutOfPlace(pool: pg.Pool, { numberWaiting = true } = {}): Promise<string[]> {
  if (numberWaiting) {
    await numberKitchenLists(pool);
    const customers = await pool.query<{ customer_id: string }>('SELECT DISTINCT customer_id FROM orders');
    for (const { customer_id } of customers.rows) await numberCustomerList(pool, customer_id);
  }
  const result = await pool.query<{ list: string }>(CHECKS);
  return result.rows.map((row) => row.list).sort();
}
