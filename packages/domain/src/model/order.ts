/** A placed order. `amount` is the sum of the line totals, in minor units of `currency`. */
export interface OrderLine {
  readonly productId: string;
  readonly name: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly lineTotal: number;
}

/** A placed order of one customer, priced by the server from the menu. */
export interface Order {
  readonly orderId: string;
  readonly customerId: string;
  readonly items: readonly OrderLine[];
  readonly amount: number;
  readonly currency: string;
  readonly createdAt: Date;
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
