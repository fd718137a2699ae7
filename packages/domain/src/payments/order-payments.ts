import type { Order } from '../orders/order.js';

/**
 * Port: orders found by their payment, for the provider's events and the sweeper. Stores keep the
 * intent id unique across orders and index `payment.checkAt` (only orders with one).
 */
export interface OrderPayments {
  /** The order whose payment is the provider's intent `intentId`, or null (an intent we do not know). */
  findByIntent(intentId: string): Promise<Order | null>;
  /**
   * Takes at most `limit` orders whose `payment.checkAt` is at or before `now`, earliest first, and
   * moves their `checkAt` to `leaseUntil` in the same atomic step (the order's version does not
   * change), so that no other caller takes one of them before `leaseUntil`: of concurrent calls,
   * each due order goes to one. Resolves with the orders as they now stand.
   */
  claimChecks(now: Date, leaseUntil: Date, limit: number): Promise<readonly Order[]>;
}
