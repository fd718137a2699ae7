/**
 * The kitchen's board as plain data, and the one function that changes it: `apply(board, action)`,
 * tested without a browser (test/board.spec.ts). Versions decide: whatever arrives (live, replayed,
 * a list read, one order read again after a 412), the board keeps the newest version of each order
 * and ignores anything older or equal; orders that left the board keep their last version, so a
 * late or replayed event cannot bring them back. A refund is a version of its own: it changes the
 * card's payment and nothing else.
 */
import { isOpen, type OpenStatus, type Status } from './lifecycle.js';

export interface OrderOption {
  readonly option_id: string;
  readonly name: string;
}

export interface OrderLine {
  readonly product_id: string;
  readonly name: string;
  readonly quantity: number;
  readonly options?: readonly OrderOption[] | undefined;
}

export interface Address {
  readonly line1: string;
  readonly line2?: string | undefined;
  readonly city: string;
  readonly postal_code: string;
  readonly instructions?: string | undefined;
}

/** How and when the order is handed over. Optional: orders placed before it existed are pickup, ASAP. */
export interface Fulfilment {
  readonly type: 'pickup' | 'delivery';
  readonly time?: string | undefined;
  readonly promised_at?: string | undefined;
  readonly address?: Address | undefined;
  readonly zone?: string | undefined;
}

export type PaymentStatus = 'awaiting' | 'authorized' | 'captured' | 'voided' | 'partially_refunded' | 'refunded' | 'failed';

export interface Refund {
  readonly refund_id: string;
  readonly amount: number;
  readonly reason: string;
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly created_at: string;
}

/** A card payment as the order shows it (amounts in minor units); null when the customer pays on pickup or delivery. */
export interface Payment {
  readonly provider: string;
  readonly status: PaymentStatus;
  readonly amount: number;
  readonly currency: string;
  readonly amount_captured: number;
  /** Pending and succeeded refunds together. */
  readonly amount_refunded: number;
  readonly payment_intent_id: string;
  readonly refunds: readonly Refund[];
}

/** An order as GET /api/staff/orders, GET /api/orders/{id} and `order.placed` give it (the fields the board reads). */
export interface KitchenOrder {
  readonly order_id: string;
  readonly status: Status;
  readonly version: number;
  readonly created_at: string;
  readonly items: readonly OrderLine[];
  readonly fulfilment?: Fulfilment | undefined;
  readonly reason?: string | undefined;
  /** What the customer pays, in minor units of `currency` (total.ts). */
  readonly amount?: number | undefined;
  readonly currency?: string | undefined;
  readonly prices_include_tax?: boolean | undefined;
  readonly taxes?: readonly { readonly rate: number; readonly tax: number }[] | undefined;
  readonly tax_total?: number | undefined;
  /** Absent on orders read before payments existed. */
  readonly payment?: Payment | null | undefined;
}

/** The data of an `order.status` event. */
export interface StatusChange {
  readonly order_id: string;
  readonly status: Status;
  readonly version: number;
  readonly at: string;
  readonly reason?: string | undefined;
}

/**
 * The data of an `order.refunded` event (the refund asked for and the order's payment with it) or an
 * `order.payment` event (a refund settled: the payment alone).
 */
export interface RefundChange {
  readonly order_id: string;
  readonly version: number;
  readonly at: string;
  readonly refund?: Refund;
  readonly payment: Payment;
}

/** What the events told of an order whose details are still to be read: the newest move, the newest payment. */
export interface Pending {
  readonly change?: StatusChange | undefined;
  readonly refund?: RefundChange | undefined;
}

export interface Board {
  /** Open orders whose details are known, by id. */
  readonly orders: Readonly<Record<string, KitchenOrder>>;
  /** Orders known only from events (open, or not known to be closed): their details are to be read (`awaited`). */
  readonly pending: Readonly<Record<string, Pending>>;
  /** The last version of orders that left the board. */
  readonly closed: Readonly<Record<string, number>>;
  /** Live changes applied so far; `touched[id]` is the count when `id` last changed live. */
  readonly seq: number;
  readonly touched: Readonly<Record<string, number>>;
  /** New orders seen live (the page rings when it grows). */
  readonly arrivals: number;
}

export type BoardAction =
  /** An `order.placed` event. */
  | { readonly kind: 'placed'; readonly order: KitchenOrder }
  /** An `order.status` event. */
  | { readonly kind: 'status'; readonly change: StatusChange }
  /** An `order.refunded` event. */
  | { readonly kind: 'refunded'; readonly change: RefundChange }
  /** One order read again (after a 412, or the details of a pending one). */
  | { readonly kind: 'loaded'; readonly order: KitchenOrder }
  /**
   * The open orders as read from GET /api/staff/orders, the read having started when the board's
   * `seq` was `since`: an order missing from it is gone, unless it changed live after `since`
   * (placed after the read, say).
   */
  | { readonly kind: 'snapshot'; readonly orders: readonly KitchenOrder[]; readonly since: number };

export const EMPTY_BOARD: Board = { orders: {}, pending: {}, closed: {}, seq: 0, touched: {}, arrivals: 0 };

export function apply(board: Board, action: BoardAction): Board {
  switch (action.kind) {
    case 'placed': {
      const fresh = newestVersion(board, action.order.order_id) === 0;
      const next = live(mergeOrder(board, action.order), action.order.order_id);
      return fresh && next !== board && isOpen(action.order.status) ? { ...next, arrivals: next.arrivals + 1 } : next;
    }
    case 'status':
      return live(mergeChange(board, action.change), action.change.order_id);
    case 'refunded':
      return live(mergeRefund(board, action.change), action.change.order_id);
    case 'loaded':
      return mergeOrder(board, action.order);
    case 'snapshot':
      return mergeSnapshot(board, action.orders, action.since);
  }
}

/** The newest version the board knows of an order; 0 when it has never seen it. */
export function newestVersion(board: Board, orderId: string): number {
  const pending = board.pending[orderId];
  return Math.max(board.orders[orderId]?.version ?? 0, pending?.change?.version ?? 0, pending?.refund?.version ?? 0, board.closed[orderId] ?? 0);
}

/** Ids of the orders whose details the page must read (GET /api/orders/{id}). */
export function awaited(board: Board): string[] {
  return Object.keys(board.pending);
}

/** When an order is due: its promised time, else (orders without fulfilment) its placement. */
export function dueAt(order: KitchenOrder): string {
  return order.fulfilment?.promised_at ?? order.created_at;
}

/** The open orders by status, soonest due first (then placement, then id: a stable order). */
export function columns(board: Board): Record<OpenStatus, KitchenOrder[]> {
  const result: Record<OpenStatus, KitchenOrder[]> = { placed: [], accepted: [], preparing: [], ready: [] };
  for (const order of Object.values(board.orders)) {
    if (isOpen(order.status)) result[order.status].push(order);
  }
  for (const list of Object.values(result)) list.sort(byDue);
  return result;
}

function byDue(a: KitchenOrder, b: KitchenOrder): number {
  const due = Date.parse(dueAt(a)) - Date.parse(dueAt(b));
  if (due !== 0) return due;
  const placed = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (placed !== 0) return placed;
  return a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0;
}

/** Marks a change as live (it happened after any read that is under way). */
function live(board: Board, orderId: string): Board {
  return { ...board, seq: board.seq + 1, touched: { ...board.touched, [orderId]: board.seq + 1 } };
}

/** An order's details: kept when newer than what the board knows, with what pending events say that is newer on top. */
function mergeOrder(board: Board, order: KitchenOrder): Board {
  const id = order.order_id;
  const { change, refund } = board.pending[id] ?? {};
  let latest = order;
  if (change !== undefined && change.version > order.version) latest = withChange(latest, change);
  if (refund !== undefined && refund.version > order.version) latest = withPayment(latest, refund);
  if (latest.version <= Math.max(board.orders[id]?.version ?? 0, board.closed[id] ?? 0)) return board;
  return place(board, latest);
}

function mergeChange(board: Board, change: StatusChange): Board {
  const id = change.order_id;
  if (change.version <= newestVersion(board, id)) return board;
  const known = board.orders[id];
  if (known !== undefined) return place(board, withChange(known, change));
  if (!isOpen(change.status)) return place(board, { order_id: id, status: change.status, version: change.version, created_at: change.at, items: [] });
  return { ...board, pending: { ...board.pending, [id]: { ...board.pending[id], change } } };
}

function mergeRefund(board: Board, change: RefundChange): Board {
  const id = change.order_id;
  if (change.version <= newestVersion(board, id)) return board;
  const known = board.orders[id];
  if (known !== undefined) return place(board, withPayment(known, change));
  // Refunded after it left the board (after the hand-over, say): it stays off.
  if (board.closed[id] !== undefined) return { ...board, closed: { ...board.closed, [id]: change.version } };
  return { ...board, pending: { ...board.pending, [id]: { ...board.pending[id], refund: change } } };
}

/** Puts the newest version of an order where it belongs: on the board when open, else among the closed. */
function place(board: Board, order: KitchenOrder): Board {
  const id = order.order_id;
  const orders = { ...board.orders };
  const pending = { ...board.pending };
  const closed = { ...board.closed };
  delete pending[id];
  if (isOpen(order.status)) {
    orders[id] = order;
  } else {
    delete orders[id];
    closed[id] = order.version;
  }
  return { ...board, orders, pending, closed };
}

function withChange(order: KitchenOrder, change: StatusChange): KitchenOrder {
  const { reason: _reason, ...rest } = order;
  return { ...rest, status: change.status, version: change.version, ...(change.reason === undefined ? {} : { reason: change.reason }) };
}

function withPayment(order: KitchenOrder, change: RefundChange): KitchenOrder {
  return { ...order, payment: change.payment, version: Math.max(order.version, change.version) };
}

function mergeSnapshot(board: Board, orders: readonly KitchenOrder[], since: number): Board {
  let next = board;
  for (const order of orders) next = mergeOrder(next, order);
  const listed = new Set(orders.map((order) => order.order_id));
  // Not listed and not changed since the read began: it left the board while nobody listened.
  const gone = (id: string): boolean => !listed.has(id) && (next.touched[id] ?? 0) <= since;
  const keep = <T>(record: Readonly<Record<string, T>>): Record<string, T> =>
    Object.fromEntries(Object.entries(record).filter(([id]) => !gone(id)));
  return { ...next, orders: keep(next.orders), pending: keep(next.pending) };
}
