import type { TaxLine } from '../taxes/order-taxes.js';
import { characterCount, isIntegerIn } from '../shared/validation.js';

/** An option chosen on an order line, as it was priced at placement (the menu may change later). */
export interface OrderLineOption {
  readonly optionId: string;
  readonly name: string;
  readonly priceDelta: number;
}

/**
 * One line of a placed order: `unitPrice` is the product's price plus the chosen options' deltas,
 * `lineTotal` is `unitPrice × quantity`. `options` is always present (empty when none was chosen),
 * in the menu's order of groups and options.
 */
export interface OrderLine {
  readonly productId: string;
  readonly name: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly lineTotal: number;
  readonly options: readonly OrderLineOption[];
  /** The line's rate in basis points, as taxed at placement (0 for lines placed before taxes). */
  readonly taxRate: number;
}

import type { Fulfilment } from '../fulfilment/fulfilment.js';
import type { OrderPayment, PaymentChangeNote } from '../payments/order-payment.js';

/**
 * Where an order is in the kitchen (see order-lifecycle.ts for the moves between them);
 * `awaiting_payment` comes before `placed` only when payments are on.
 */
export type OrderStatus = 'awaiting_payment' | 'placed' | 'accepted' | 'preparing' | 'ready' | 'completed' | 'rejected' | 'cancelled';

/**
 * One entry of an order's history, one per version: the status it entered, and when. An entry with
 * `paymentChange` is a change of the payment alone (a refund asked for, a refund settled): the status
 * stays, and the status history the API shows leaves it out.
 */
export interface StatusChange {
  readonly status: OrderStatus;
  readonly at: Date;
  readonly paymentChange?: PaymentChangeNote;
}

/**
 * An order of one customer, priced by the server from the menu, and where it is in the kitchen.
 * `version` is 1 at placement and grows by one per move: a move is a compare-and-set on it.
 */
export interface Order {
  readonly orderId: string;
  readonly customerId: string;
  readonly items: readonly OrderLine[];
  /** The sum of the lines' totals. */
  readonly subtotal: number;
  /** 0 for pickup. */
  readonly deliveryFee: number;
  /** 0 when none was given. */
  readonly tip: number;
  /** What the customer pays: subtotal + deliveryFee + tip, plus taxTotal when tax is added on top. */
  readonly amount: number;
  /** Whether the prices above include the tax (false for orders placed before taxes). */
  readonly pricesIncludeTax: boolean;
  /** One entry per rate with a taxable amount, ascending by rate ([] for orders placed before taxes). */
  readonly taxes: readonly TaxLine[];
  /** The sum of the taxes' `tax`. */
  readonly taxTotal: number;
  readonly currency: string;
  readonly createdAt: Date;
  readonly status: OrderStatus;
  readonly version: number;
  readonly updatedAt: Date;
  /** Oldest first, starting with `placed` at `createdAt`. */
  readonly statusHistory: readonly StatusChange[];
  /** Why it was rejected or cancelled, when a reason was given. */
  readonly reason?: string;
  /** Pickup or delivery, and the slot it is promised for (orders stored before read as pickup at `createdAt`). */
  readonly fulfilment: Fulfilment;
  /** The card payment, when payments are on (absent: paid on pickup or delivery, `payment: null`). */
  readonly payment?: OrderPayment;
}

/** What the client asks for: product ids, quantities and option ids (a set), never prices. */
export interface OrderRequestLine {
  readonly productId: string;
  readonly quantity: number;
  /** Option ids of the product, each at most once; absent or empty when none is chosen. */
  readonly options?: readonly string[];
}

/**
 * What `placeOrder` accepts: 1 to 50 lines, quantities from 1 to 99, and per line at most as many
 * options as a product can have (OPTION_LIMITS: 20 groups of 50), so that a valid choice is never
 * refused for its length.
 */
export const ORDER_LIMITS = {
  minLines: 1,
  maxLines: 50,
  minQuantity: 1,
  maxQuantity: 99,
  maxOptionsPerLine: 1000,
  /** A product or option id as a client may send it, in characters (ours are far shorter). */
  maxIdLength: 64,
} as const;

/** The kitchen's queue order: promised_at, then placement (created_at, order_id). */
export function compareKitchenOrders(a: Order, b: Order): number {
  const dp = a.fulfilment.promisedAt.getTime() - b.fulfilment.promisedAt.getTime();
  return dp !== 0 ? dp : compareOrders(a, b);
}

/** Quantity: how many of a line's dish, a whole number from ORDER_LIMITS.minQuantity to maxQuantity. */
export function isQuantity(value: unknown): value is number {
  return isIntegerIn(value, ORDER_LIMITS.minQuantity, ORDER_LIMITS.maxQuantity);
}

/** Whether `value` is an id string a client may send (1 to ORDER_LIMITS.maxIdLength characters). */
export function isIdText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && characterCount(value) <= ORDER_LIMITS.maxIdLength;
}

/** Orders are listed oldest first: created_at, then order_id. */
export function compareOrders(a: Order, b: Order): number {
  const dt = a.createdAt.getTime() - b.createdAt.getTime();
  if (dt !== 0) return dt;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}

/** The order without its delivery address (an erased account's); the same order when it has none. */
export function withoutDeliveryAddress(order: Order): Order {
  if (order.fulfilment.address === undefined) return order;
  const { address: _address, ...fulfilment } = order.fulfilment;
  return { ...order, fulfilment };
}
