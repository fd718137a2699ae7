/**
 * Who may read and move one order: the owner, or the kitchen. Anybody else is told the order does
 * not exist (`not_found`, never `forbidden`): an order id must not reveal that an order exists.
 */
import { DomainError } from '../shared/errors.js';
import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import { isStaffRole, type Role } from '../accounts/customer.js';
import type { Order } from './order.js';
import { isUncooked } from './order-lifecycle.js';
import type { OrderRepository } from './order-repository.js';

/** Who asks: an account and its role. */
export interface Viewer {
  readonly customerId: string;
  readonly role: Role;
}

export const noop = (): void => undefined;

/**
 * A cancelled or rejected order gives its slot's place back. Should that fail, the move stands and
 * the place stays taken: a slot short of one place, never one over-booked (a repeated cancel frees it).
 */
export async function freePlace(planner: FulfilmentPlanner | null, order: Order): Promise<void> {
  if (planner === null || !isUncooked(order.status)) return;
  await planner.release(order.fulfilment.promisedAt, order.orderId).catch(noop);
}

export const notFound = (): DomainError => new DomainError('not_found', 'No such order.');

/** The order if `viewer` may see it (its owner, or staff); else `not_found`. */
export async function visibleOrder(orders: OrderRepository, viewer: Viewer, orderId: string): Promise<Order> {
  const order = isStaffRole(viewer.role) ? await orders.findById(orderId) : await orders.findOrder(viewer.customerId, orderId);
  if (order === null) throw notFound();
  return order;
}
