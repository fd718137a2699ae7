/** A placed order. `amount` is the sum of the line totals, in minor units of `currency`. */
export interface OrderLine {
  readonly productId: string;
  readonly name: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly lineTotal: number;
}

/** Where an order is in the kitchen (see order-lifecycle.ts for the moves between them). */
export type OrderStatus = 'placed' | 'accepted' | 'preparing' | 'ready' | 'completed' | 'rejected' | 'cancelled';

/** One entry of an order's status history: the status it entered, and when. */
export interface StatusChange {
  readonly status: OrderStatus;
  readonly at: Date;
}

/**
 * An order of one customer, priced by the server from the menu, and where it is in the kitchen.
 * `version` is 1 at placement and grows by one per move: a move is a compare-and-set on it.
 */
export interface Order {
  readonly orderId: string;
  readonly customerId: string;
  readonly items: readonly OrderLine[];
  readonly amount: number;
  readonly currency: string;
  readonly createdAt: Date;
  readonly status: OrderStatus;
  readonly version: number;
  readonly updatedAt: Date;
  /** Oldest first, starting with `placed` at `createdAt`. */
  readonly statusHistory: readonly StatusChange[];
  /** Why it was rejected or cancelled, when a reason was given. */
  readonly reason?: string;
}

/** What the client asks for: product ids and quantities, never prices. */
export interface OrderRequestLine {
  readonly productId: string;
  readonly quantity: number;
}

/** What `placeOrder` accepts: 1 to 50 lines, quantities from 1 to 99. */
export const ORDER_LIMITS = {
  minLines: 1,
  maxLines: 50,
  minQuantity: 1,
  maxQuantity: 99,
} as const;

/** Orders are listed oldest first: created_at, then order_id. */
export function compareOrders(a: Order, b: Order): number {
  const dt = a.createdAt.getTime() - b.createdAt.getTime();
  if (dt !== 0) return dt;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}
