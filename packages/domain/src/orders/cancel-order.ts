import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import type { Clock } from '../shared/security.js';
import type { Order } from './order.js';
import { freePlace, noop, notFound } from './order-access.js';
import { invalidTransition, planMove } from './order-lifecycle.js';
import type { OrderRepository } from './order-repository.js';
import { withPayment } from '../payments/payment-moves.js';
import type { PaymentDesk } from '../payments/payment-desk.js';

/**
 * The owner cancels an order the kitchen has not accepted yet (or one still awaiting its payment,
 * whose intent is cancelled first). Cancelling an order already
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
    /** Cancels the order's payment first (payments on): nothing is charged. */
    private readonly desk: PaymentDesk | null = null,
  ) {}

  async execute(input: { readonly customerId: string; readonly orderId: string }): Promise<Order> {
    const order = await this.orders.findOrder(input.customerId, input.orderId);
    if (order === null) throw notFound();
    if (order.status === 'cancelled') {
      await freePlace(this.planner, order);
      return order;
    }
    const moved = await this.orders.applyMove(await withPayment(this.desk, order, planMove(order, { to: 'cancelled', by: 'owner' }, this.clock.now())));
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
