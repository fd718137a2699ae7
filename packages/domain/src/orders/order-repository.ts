import type { OrderMove } from './order-lifecycle.js';
import type { Order, OrderStatus } from './order.js';
import type { Page, PageRequest } from '../shared/page.js';

/** What `insert` did: stored this order, or found one with its id already stored. */
export interface InsertResult {
  readonly order: Order;
  readonly inserted: boolean;
}

/**
 * Port: where orders live. `insert` and `applyMove` leave each change due in the outbox
 * (OrderOutbox) in the same atomic write that stores it.
 */
export interface OrderRepository {
  /** Stores an order unless one with its id is stored already; resolves to the stored order. */
  insert(order: Order): Promise<InsertResult>;
  /** One of the customer's orders, or null (also for another customer's order id). */
  findOrder(customerId: string, orderId: string): Promise<Order | null>;
  /** The customer's orders, oldest first (created_at, then order_id), one page. */
  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>>;
  /** Any customer's order by its id (the kitchen's view), or null. */
  findById(orderId: string): Promise<Order | null>;
  /**
   * Applies `move` as one compare-and-set: only if the order's stored version is still
   * `move.fromVersion`, its status, version (+1), `updatedAt`, history (+1 entry) and reason change
   * together. Resolves to the order after the move, or null when the order has moved on meanwhile
   * (or does not exist). Of concurrent moves planned on one version, exactly one wins.
   */
  applyMove(move: OrderMove): Promise<Order | null>;
  /**
   * Removes the delivery address from every order of the customer (erasure of the account); the
   * zone, fee and everything else stay. Orders of other customers are untouched.
   */
  eraseDeliveryAddresses(customerId: string): Promise<void>;
  /**
   * Every customer's orders whose status is one of `statuses`, soonest promised first
   * (fulfilment.promisedAt, then created_at, then order_id: compareKitchenOrders), one page: the kitchen's queue. Its cost must not grow with the orders in other
   * statuses (an index in a database; per-status lists in memory).
   */
  listByStatus(statuses: readonly OrderStatus[], page: PageRequest): Promise<Page<Order>>;
}
