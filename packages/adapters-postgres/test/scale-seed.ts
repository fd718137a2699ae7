/**
 * A million orders in one statement (INSERT … SELECT generate_series), for the paging test: one
 * customer with a quarter of them, the rest spread over 5,000 customers; 30 % open (spread over
 * the four open statuses), the rest completed. Creation times follow the series, one second apart.
 *
 * The list triggers are off for the insert (session_replication_role = replica, so a row-by-row
 * trigger does not run a million times); the positions they would have given are computed by
 * window functions instead, and the list sizes by counts. The list-positions suite checks that
 * what the triggers do agrees with these definitions. The indexes are built after the rows.
 */
import type pg from 'pg';

export const BIG_CUSTOMER = 'cus_scale_big';

const SEED = `
INSERT INTO orders (order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history,
                    published_version, customer_seq, status_seq, open_seq)
SELECT order_id, customer_id, items, 1000, 'USD', created_at, status, 1, created_at,
       jsonb_build_array(jsonb_build_object('status', 'placed', 'at', created_at)), 1,
       row_number() OVER (PARTITION BY customer_id ORDER BY created_at, order_id),
       row_number() OVER (PARTITION BY status ORDER BY created_at, order_id),
       CASE WHEN storefront_order_is_open(status)
            THEN row_number() OVER (PARTITION BY storefront_order_is_open(status) ORDER BY created_at, order_id) END
  FROM (SELECT 'ord_scale_' || lpad(g::text, 8, '0') AS order_id,
               CASE WHEN g % 4 = 0 THEN '${BIG_CUSTOMER}' ELSE 'cus_scale_' || (g % 5000) END AS customer_id,
               '[{"productId":"prd_scale","name":"Dish","quantity":1,"unitPrice":1000,"lineTotal":1000,"options":[]}]'::jsonb AS items,
               timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second' AS created_at,
               CASE WHEN g % 10 < 3 THEN (ARRAY['placed', 'accepted', 'preparing', 'ready'])[1 + g % 7 % 4] ELSE 'completed' END AS status
          FROM generate_series(1, $1::int) AS g) AS generated`;

const SIZES = `
INSERT INTO order_list_sizes (list, size)
SELECT 'customer:' || customer_id, count(*) FROM orders GROUP BY customer_id
UNION ALL SELECT 'status:' || status, count(*) FROM orders GROUP BY status
UNION ALL SELECT 'open', count(*) FROM orders WHERE storefront_order_is_open(status)
ON CONFLICT (list) DO UPDATE SET size = EXCLUDED.size`;

export async function seedOrders(pool: pg.Pool, count: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query("SET work_mem = '128MB'");
    // Faster to build the indexes once over the rows than to grow them row by row: drop them and
    // make them again from their own definitions (the migration's, as pg_indexes reports them).
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'orders' AND indexname <> 'orders_pkey'",
    );
    for (const { indexname } of indexes.rows) await client.query(`DROP INDEX ${indexname}`);
    await client.query(SEED, [count]);
    for (const { indexdef } of indexes.rows) await client.query(indexdef);
    await client.query(SIZES);
    await client.query('SET session_replication_role = DEFAULT');
    await client.query('VACUUM ANALYZE orders');
  } finally {
    client.release();
  }
}
