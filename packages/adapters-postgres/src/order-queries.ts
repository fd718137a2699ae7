/**
 * The order listing queries, on their own so that a test can EXPLAIN what the repository runs.
 * Page N is a range of dense positions (see the initial schema): `limit` index rows, whatever N; a
 * list's total is one row of order_list_sizes. The kitchen's queue, by (promised_at, created_at,
 * order_id), reads `open_seq` (default filter) or `status_seq` (one status); other sets merge the
 * statuses' index runs and skip to the page, so their cost grows with the page number.
 */
import type { OrderStatus } from '@storefront/domain';
import type { PageRequest } from '@storefront/domain/adapter-kit';
import { OPEN_STATUSES, pageOffset } from '@storefront/domain/adapter-kit';
import { ORDER_COLUMNS } from './order-mapper.js';

export interface Query {
  readonly text: string;
  readonly values: unknown[];
}

/** Positions (offset, offset + limit]: $2 and $3 of the range queries. */
function range(page: PageRequest): [number, number] {
  const offset = pageOffset(page);
  return [offset, offset + page.limit];
}

export function customerOrdersQuery(customerId: string, page: PageRequest): Query {
  return {
    text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE customer_id = $1 AND customer_seq > $2 AND customer_seq <= $3 ORDER BY customer_seq`,
    values: [customerId, ...range(page)],
  };
}

export function customerOrdersTotalQuery(customerId: string): Query {
  return { text: 'SELECT size FROM order_list_sizes WHERE list = $1', values: [`customer:${customerId}`] };
}

function isOpenSet(statuses: readonly OrderStatus[]): boolean {
  const set = new Set(statuses);
  return set.size === OPEN_STATUSES.length && OPEN_STATUSES.every((status) => set.has(status));
}

export function ordersByStatusQuery(statuses: readonly OrderStatus[], page: PageRequest): Query {
  const distinct = [...new Set(statuses)];
  if (isOpenSet(distinct)) {
    return {
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE open_seq > $1 AND open_seq <= $2 ORDER BY open_seq`,
      values: range(page),
    };
  }
  if (distinct.length === 1) {
    return {
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE status = $1 AND status_seq > $2 AND status_seq <= $3 ORDER BY status_seq`,
      values: [distinct[0], ...range(page)],
    };
  }
  // One ordered index run per status, merged; the planner's Merge Append keeps it sort-free.
  const runs = distinct.map((_, i) => `(SELECT ${ORDER_COLUMNS} FROM orders WHERE status = $${i + 3} ORDER BY promised_at, created_at, order_id LIMIT $2::bigint + $1::bigint)`);
  return {
    text: `SELECT * FROM (${runs.join(' UNION ALL ')}) merged ORDER BY promised_at, created_at, order_id OFFSET $1::bigint LIMIT $2::bigint`,
    values: [pageOffset(page), page.limit, ...distinct],
  };
}

export function ordersByStatusTotalQuery(statuses: readonly OrderStatus[]): Query {
  const distinct = [...new Set(statuses)];
  const lists = isOpenSet(distinct) ? ['open'] : distinct.map((status) => `status:${status}`);
  return { text: 'SELECT coalesce(sum(size), 0)::bigint AS size FROM order_list_sizes WHERE list = ANY($1::text[])', values: [lists] };
}

/** The outbox's oldest entries, read from the partial index orders_outbox (its predicate repeated). */
export function unpublishedOrdersQuery(limit: number): Query {
  return {
    text: `SELECT ${ORDER_COLUMNS}, published_version FROM orders WHERE version > published_version ORDER BY updated_at, order_id LIMIT $1`,
    values: [limit],
  };
}
