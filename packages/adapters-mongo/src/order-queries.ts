/**
 * The order listing queries, on their own so a test can `explain()` what the repository runs.
 * Each walks an index in order and never sorts in memory: a customer's list on orders_by_customer;
 * the kitchen's queue merging (SORT_MERGE) orders_kitchen_queue's run per status (page N skips
 * N-1 pages of keys, cheap next to fetching documents); the outbox on the partial orders_outbox
 * index, oldest due first whatever the number of published orders.
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
