/**
 * Reading and moving one order: the owner, or the kitchen. Anybody else is told the order does not
 * exist (`not_found`, never `forbidden`): an order id must not reveal that an order exists.
 */
import { DomainError } from '../shared/errors.js';
import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import { isStaffRole, type Role } from '../accounts/customer.js';
import type { Order } from './order.js';
import { invalidTransition, isOrderStatus, ORDER_STATUSES, parseReason, planMove } from './order-lifecycle.js';
import { Issues } from '../shared/validation.js';
import type { OrderRepository } from './order-repository.js';
import type { Clock } from '../shared/security.js';

/** Who asks: an account and its role. */
export interface Viewer {
  readonly customerId: string;
  readonly role: Role;
}

const noop = (): void => undefined;

/**
 * A cancelled or rejected order gives its slot's place back. Should that fail, the move stands and
 * the place stays taken: a slot short of one place, never one over-booked (a repeated cancel frees it).
 */
async function freePlace(planner: FulfilmentPlanner | null, order: Order): Promise<void> {
  if (planner === null || (order.status !== 'cancelled' && order.status !== 'rejected')) return;
  await planner.release(order.fulfilment.promisedAt, order.orderId).catch(noop);
}

const notFound = (): DomainError => new DomainError('not_found', 'No such order.');

/** The order if `viewer` may see it (its owner, or staff); else `not_found`. */
async function visibleOrder(orders: OrderRepository, viewer: Viewer, orderId: string): Promise<Order> {
  const order = isStaffRole(viewer.role) ? await orders.findById(orderId) : await orders.findOrder(viewer.customerId, orderId);
  if (order === null) throw notFound();
  return order;
}

/** `GET /api/orders/{order_id}`. */
export class GetOrder {
  constructor(private readonly orders: OrderRepository) {}

  execute(input: { readonly viewer: Viewer; readonly orderId: string }): Promise<Order> {
    return visibleOrder(this.orders, input.viewer, input.orderId);
  }
}

/**
 * The owner cancels an order the kitchen has not accepted yet. Cancelling an order already
 * cancelled answers it again (a retry of a cancel whose answer was lost); otherwise, once the
 * kitchen has moved it, `invalid_transition`.
 */
export class CancelOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void = noop,
    /** Gives slot places back. */
    private readonly planner: FulfilmentPlanner | null = null,
  ) {}

  async execute(input: { readonly customerId: string; readonly orderId: string }): Promise<Order> {
    const order = await this.orders.findOrder(input.customerId, input.orderId);
    if (order === null) throw notFound();
    if (order.status === 'cancelled') {
      await freePlace(this.planner, order);
      return order;
    }
    const moved = await this.orders.applyMove(planMove(order, { to: 'cancelled', by: 'owner' }, this.clock.now()));
    if (moved !== null) {
      this.stored();
      await freePlace(this.planner, moved);
      return moved;
    }
    // The kitchen moved it meanwhile: a cancel that lost to another cancel is still a cancel.
    const now = await this.orders.findOrder(input.customerId, input.orderId);
    if (now?.status === 'cancelled') return now;
    throw invalidTransition(now ?? order, 'cancelled');
  }
}

/** What the kitchen asks for: a status (validated here), a reason where needed, and If-Match. */
export interface MoveOrderInput {
  readonly orderId: string;
  readonly status: unknown;
  readonly reason?: unknown;
  /** The version the mover last saw (If-Match); the move is refused with `precondition_failed` if it has moved on. */
  readonly expectedVersion?: number | undefined;
}

/**
 * A kitchen move (`POST /api/staff/orders/{order_id}/status`, `orders move`). Of two moves of one
 * order at once exactly one wins; the other is refused (`invalid_transition`, or
 * `precondition_failed` when it said which version it expected), never applied on top.
 */
export class MoveOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void = noop,
    /** Gives slot places back. */
    private readonly planner: FulfilmentPlanner | null = null,
  ) {}

  async execute(input: MoveOrderInput): Promise<Order> {
    const issues = new Issues();
    if (!isOrderStatus(input.status)) issues.add('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
    const reason = parseReason(input.reason, issues);
    issues.throwIfAny();
    const to = input.status as Order['status'];
    const order = await this.orders.findById(input.orderId);
    if (order === null) throw notFound();
    if (input.expectedVersion !== undefined && order.version !== input.expectedVersion) throw preconditionFailed(order);
    const move = planMove(order, { to, by: 'staff', reason }, this.clock.now());
    const moved = await this.orders.applyMove(move);
    if (moved !== null) {
      this.stored();
      await freePlace(this.planner, moved);
      return moved;
    }
    const now = (await this.orders.findById(input.orderId)) ?? order;
    if (input.expectedVersion !== undefined) throw preconditionFailed(now);
    throw invalidTransition(now, to);
  }
}

function preconditionFailed(order: Order): DomainError {
  return new DomainError('precondition_failed', `The order has moved on: it is ${order.status} at version ${order.version}.`);
}
