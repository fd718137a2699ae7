import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import { DomainError } from '../shared/errors.js';
import type { Clock } from '../shared/security.js';
import { Issues } from '../shared/validation.js';
import type { Order } from './order.js';
import { freePlace, noop, notFound } from './order-access.js';
import { invalidTransition, isOrderStatus, ORDER_STATUSES, parseReason, planMove } from './order-lifecycle.js';
import type { OrderRepository } from './order-repository.js';
import { giveBack, withPayment } from '../payments/payment-moves.js';
import type { PaymentDesk } from '../payments/payment-desk.js';
import { PaymentSettler } from '../payments/payment-settler.js';

/** What the kitchen asks for: a status (validated here), a reason where needed, and If-Match. */
export interface MoveOrderInput {
  readonly orderId: string;
  readonly status: unknown;
  readonly reason?: unknown;
  /** The version the mover last saw (If-Match); the move is refused with `precondition_failed` if it has moved on. */
  readonly expectedVersion?: number | undefined;
}

/** A move loses its compare-and-set only to a change stored meanwhile; a few attempts always suffice. */
const MAX_ATTEMPTS = 5;

/**
 * A kitchen move (`POST /api/staff/orders/{order_id}/status`, `orders move`). Of two moves of one
 * order at once exactly one wins; the other is refused (`invalid_transition`, or
 * `precondition_failed` when it said which version it expected), never applied on top. A move that
 * lost only to a change of the payment (a refund recorded, the provider's news) is planned again.
 */
export class MoveOrder {
  private readonly settler: PaymentSettler | null;

  constructor(
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void = noop,
    /** Gives slot places back. */
    private readonly planner: FulfilmentPlanner | null = null,
    /** Captures on acceptance, gives the money back on a rejection or cancellation (payments on). */
    private readonly desk: PaymentDesk | null = null,
  ) {
    this.settler = desk === null ? null : new PaymentSettler(orders, clock, stored, planner);
  }

  async execute(input: MoveOrderInput): Promise<Order> {
    const issues = new Issues();
    if (!isOrderStatus(input.status)) issues.add('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
    const reason = parseReason(input.reason, issues);
    issues.throwIfAny();
    const to = input.status as Order['status'];
    let order = await this.orders.findById(input.orderId);
    if (order === null) throw notFound();
    if (input.expectedVersion !== undefined && order.version !== input.expectedVersion) throw preconditionFailed(order);
    for (let attempt = 1; ; attempt++) {
      const moved = await this.orders.applyMove(await withPayment(this.desk, order, planMove(order, { to, by: 'staff', reason }, this.clock.now())));
      if (moved !== null) {
        this.stored();
        await freePlace(this.planner, moved);
        return this.desk === null ? moved : giveBack(this.desk, this.settler!, moved).catch(() => moved);
      }
      const now: Order = (await this.orders.findById(input.orderId)) ?? order;
      if (input.expectedVersion !== undefined) throw preconditionFailed(now);
      if (now.status !== order.status || attempt >= MAX_ATTEMPTS) throw invalidTransition(now, to);
      order = now;
    }
  }
}

function preconditionFailed(order: Order): DomainError {
  return new DomainError('precondition_failed', `The order has moved on: it is ${order.status} at version ${order.version}.`);
}
