import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import type { Clock } from '../shared/security.js';
import type { Order } from './order.js';
import { freePlace, noop, notFound } from './order-access.js';
import { invalidTransition, planMove } from './order-lifecycle.js';
import type { OrderRepository } from './order-repository.js';
import { giveBack, withPayment } from '../payments/payment-moves.js';
import type { PaymentDesk } from '../payments/payment-desk.js';
import { PaymentSettler } from '../payments/payment-settler.js';

/**
 * The owner cancels an order the kitchen has not accepted yet (or one still awaiting its payment,
 * whose intent is then cancelled: the cancellation is stored first, so that an authorization racing
 * it can no longer place the order). Cancelling an order already cancelled answers it again (a
 * retry of a cancel whose answer was lost, which also finishes a void the provider did not answer);
 * otherwise, once the kitchen has moved it, `invalid_transition`.
 */
/** A cancel loses its compare-and-set only to a change stored meanwhile; a few attempts always suffice. */
const MAX_ATTEMPTS = 5;

export class CancelOrder {
  private readonly settler: PaymentSettler | null;

  constructor(
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void = noop,
    /** Gives slot places back. */
    private readonly planner: FulfilmentPlanner | null = null,
    /** Cancels the order's payment first (payments on): nothing is charged. */
    private readonly desk: PaymentDesk | null = null,
  ) {
    this.settler = desk === null ? null : new PaymentSettler(orders, clock, stored, planner);
  }

  async execute(input: { readonly customerId: string; readonly orderId: string }): Promise<Order> {
    let order = await this.orders.findOrder(input.customerId, input.orderId);
    if (order === null) throw notFound();
    for (let attempt = 1; ; attempt++) {
      if (order.status === 'cancelled') {
        // Already cancelled (a retry, or a cancel that lost to another cancel): still a cancel.
        await freePlace(this.planner, order);
        return this.giveBack(order);
      }
      const moved = await this.orders.applyMove(await withPayment(this.desk, order, planMove(order, { to: 'cancelled', by: 'owner' }, this.clock.now())));
      if (moved !== null) {
        this.stored();
        await freePlace(this.planner, moved);
        return this.giveBack(moved);
      }
      // Changed meanwhile (its payment authorized, the kitchen's move): planned again on the order as it stands.
      const now: Order | null = await this.orders.findOrder(input.customerId, input.orderId);
      if (now === null || attempt >= MAX_ATTEMPTS) throw invalidTransition(now ?? order, 'cancelled');
      order = now;
    }
  }

  /** The card released (or refunded) for the cancelled order; the provider unreachable leaves it to the sweeper. */
  private giveBack(order: Order): Promise<Order> {
    if (this.desk === null || order.payment === undefined) return Promise.resolve(order);
    return giveBack(this.desk, this.settler!, order).catch(() => order);
  }
}
