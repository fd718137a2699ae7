/**
 * The order listing query, on its own so that a test can `explain()` exactly what the repository
 * runs: equality on the customer and a sort on (createdAt, _id) that the orders_by_customer index
 * already holds in order, so the server walks the index and never sorts in memory. Page N still
 * skips N-1 pages of index keys, which is cheap next to fetching their documents.
 */
import type { PageRequest } from '@storefront/domain';
import { pageOffset } from '@storefront/domain';
import type { Collection, FindCursor, WithId } from 'mongodb';
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
