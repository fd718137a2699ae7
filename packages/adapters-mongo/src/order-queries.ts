/**
 * The order listing queries, on their own so that a test can `explain()` exactly what the
 * repository runs. A customer's list: equality on the customer and a sort on (createdAt, _id) that
 * the orders_by_customer index already holds in order, so the server walks the index and never
 * sorts in memory. The kitchen's queue: `$in` on a few statuses, where each status's run of
 * orders_kitchen_queue is in (promisedAt, createdAt, _id) order and the server merges the runs (SORT_MERGE) rather
 * than sorting. Page N still skips N-1 pages of index keys, which is cheap next to fetching their
 * documents. The outbox: the orders_outbox index holds only the pending orders, in (updatedAt, _id)
 * order, so the oldest due are read first whatever the number of published orders.
 */
import type { OrderStatus } from '@storefront/domain';
import type { PageRequest } from '@storefront/domain/adapter-kit';
import { pageOffset } from '@storefront/domain/adapter-kit';
import type { Collection, Filter, FindCursor, WithId } from 'mongodb';
import type { OrderDocument } from './order-mapper.js';

export function findCustomerOrders(
  orders: Collection<OrderDocument>,
  customerId: string,
  page: PageRequest,
): FindCursor<WithId<OrderDocument>> {
  return orders
    .find({ customerId })
    .sort({ createdAt: 1, _id: 1 })
    .skip(pageOffset(page))
    .limit(page.limit);
}

export function countCustomerOrders(orders: Collection<OrderDocument>, customerId: string): Promise<number> {
  return orders.countDocuments({ customerId });
}

export function findOrdersByStatus(
  orders: Collection<OrderDocument>,
  statuses: readonly OrderStatus[],
  page: PageRequest,
): FindCursor<WithId<OrderDocument>> {
  return orders
    .find(statusFilter(statuses))
    .sort({ promisedAt: 1, createdAt: 1, _id: 1 })
    .skip(pageOffset(page))
    .limit(page.limit);
}

export function countOrdersByStatus(orders: Collection<OrderDocument>, statuses: readonly OrderStatus[]): Promise<number> {
  return orders.countDocuments(statusFilter(statuses));
}

function statusFilter(statuses: readonly OrderStatus[]): Filter<OrderDocument> {
  return { status: { $in: [...statuses] } };
}

/**
 * The outbox's oldest entries. MongoDB uses a partial index only for a query whose filter includes
 * the index's filter expression (else the index could miss matching documents), so the filter is
 * exactly orders_outbox's `{ eventsPending: true }`. `limit` must be at least 1: 0 means no limit.
 */
export function findUnpublishedOrders(orders: Collection<OrderDocument>, limit: number): FindCursor<WithId<OrderDocument>> {
  return orders.find({ eventsPending: true }).sort({ updatedAt: 1, _id: 1 }).limit(limit);
}
