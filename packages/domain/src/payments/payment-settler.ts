/**
 * Applies what the provider says (an event, or the sweeper's read) to the order it concerns: the
 * same transitions whichever way the news came, each a compare-and-set planned on the order as it
 * stands, so news that comes twice, late or out of order changes the order once or not at all.
 */
import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import type { Order } from '../orders/order.js';
import { freePlace } from '../orders/order-access.js';
import type { OrderMove } from '../orders/order-lifecycle.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { Clock } from '../shared/security.js';
import type { PaymentIntentOutcome, Refund } from './payment-gateway.js';
import { settleIntent, settleRefund } from './payment-desk.js';

/** What the provider says about one order's payment. */
export type PaymentNews = { readonly intent: PaymentIntentOutcome } | { readonly refund: Refund };

/** A planner of the order's next change from the order as it stands, or null when there is none. */
export type PlanChange = (order: Order, now: Date) => OrderMove | null | Promise<OrderMove | null>;

/** Each attempt loses only to a change stored meanwhile; a few always suffice. */
const MAX_ATTEMPTS = 5;

export class PaymentSettler {
  constructor(
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void,
    /** Gives the slot place of an order cancelled unpaid back. */
    private readonly planner: FulfilmentPlanner | null,
  ) {}

  /** Applies the news to `order`: the order after it (itself when the news changes nothing). */
  settle(order: Order, news: PaymentNews): Promise<Order> {
    return this.apply(order, (current, now) => ('intent' in news ? settleIntent(current, news.intent, now) : settleRefund(current, news.refund, now)));
  }

  /** Plans and applies one change, planned again on the order as it now stands when another change won. */
  async apply(order: Order, plan: PlanChange): Promise<Order> {
    let current = order;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const move = await plan(current, this.clock.now());
      if (move === null) return current;
      const moved = await this.orders.applyMove(move);
      if (moved !== null) {
        this.stored();
        await freePlace(this.planner, moved);
        return moved;
      }
      const again = await this.orders.findById(order.orderId);
      if (again === null) return current;
      current = again;
    }
    throw new Error(`order ${order.orderId} kept changing while its payment was settled`);
  }
}
