/**
 * An order as the memory store keeps it: a compact frozen row. Dates are numbers (a Date could be
 * changed in place with setTime), lines are shared through the OrderLinePool, and an order still
 * as placed (the vast majority at a million orders) carries no lifecycle state of its own: status
 * `placed`, version 1 and its one-entry history all follow from `createdAtMs`. A move swaps in a
 * new row; rows are never changed in place.
 */
import type { Order, OrderStatus, StatusChange } from '@storefront/domain';
import type { OrderLinePool } from './order-line-pool.js';

/** One entry of a stored history. */
export interface StoredChange {
  readonly status: OrderStatus;
  readonly atMs: number;
}

/** Where a moved order is; absent from a row still as placed. */
export interface MovedState {
  readonly status: OrderStatus;
  readonly version: number;
  readonly updatedAtMs: number;
  readonly history: readonly StoredChange[];
  readonly reason: string | undefined;
}

export interface OrderRow {
  readonly orderId: string;
  readonly customerId: string;
  readonly createdAtMs: number;
  readonly items: Order['items'];
  readonly amount: number;
  readonly currency: string;
  /** Absent while the order is as placed: a million placed orders do not carry a slot for it. */
  readonly moved?: MovedState;
}

/** The sort key of every list of the store: created_at, then order_id. */
export type RowKey = Pick<OrderRow, 'orderId' | 'createdAtMs'>;

export function compareRows(a: RowKey, b: RowKey): number {
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs - b.createdAtMs;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}

export function statusOf(row: OrderRow): OrderStatus {
  return row.moved === undefined ? 'placed' : row.moved.status;
}

export function versionOf(row: OrderRow): number {
  return row.moved === undefined ? 1 : row.moved.version;
}

/** `customerId` is passed apart so that every row of a customer shares one string. */
export function toRow(order: Order, customerId: string, pool: OrderLinePool): OrderRow {
  const { orderId } = order;
  // V8 builds ids by concatenation as rope strings (~190 bytes); reading a character flattens
  // one into a plain string (~55 bytes), which matters at a million orders.
  orderId.charCodeAt(0);
  const createdAtMs = order.createdAt.getTime();
  const row: OrderRow = {
    orderId,
    customerId,
    createdAtMs,
    items: pool.items(order.items),
    amount: order.amount,
    currency: order.currency,
  };
  return Object.freeze(isAsPlaced(order, createdAtMs) ? row : { ...row, moved: movedStateOf(order) });
}

/** The row after a move to `status` at `atMs` (the caller has checked the version). */
export function movedRow(row: OrderRow, status: OrderStatus, atMs: number, reason: string | undefined): OrderRow {
  const history = row.moved?.history ?? [Object.freeze({ status: 'placed' as const, atMs: row.createdAtMs })];
  const moved: MovedState = Object.freeze({
    status,
    version: versionOf(row) + 1,
    updatedAtMs: atMs,
    history: Object.freeze([...history, Object.freeze({ status, atMs })]),
    reason: reason ?? row.moved?.reason,
  });
  return Object.freeze({ ...row, moved });
}

export function toOrder(row: OrderRow): Order {
  const { moved } = row;
  if (moved === undefined) {
    return {
      orderId: row.orderId,
      customerId: row.customerId,
      items: row.items,
      amount: row.amount,
      currency: row.currency,
      createdAt: new Date(row.createdAtMs),
      status: 'placed',
      version: 1,
      updatedAt: new Date(row.createdAtMs),
      statusHistory: [{ status: 'placed', at: new Date(row.createdAtMs) }],
    };
  }
  const order: Order = {
    orderId: row.orderId,
    customerId: row.customerId,
    items: row.items,
    amount: row.amount,
    currency: row.currency,
    createdAt: new Date(row.createdAtMs),
    status: moved.status,
    version: moved.version,
    updatedAt: new Date(moved.updatedAtMs),
    statusHistory: moved.history.map((change): StatusChange => ({ status: change.status, at: new Date(change.atMs) })),
  };
  return moved.reason === undefined ? order : { ...order, reason: moved.reason };
}

function isAsPlaced(order: Order, createdAtMs: number): boolean {
  const [first, ...rest] = order.statusHistory;
  return (
    order.status === 'placed' &&
    order.version === 1 &&
    order.reason === undefined &&
    order.updatedAt.getTime() === createdAtMs &&
    rest.length === 0 &&
    first?.status === 'placed' &&
    first.at.getTime() === createdAtMs
  );
}

function movedStateOf(order: Order): MovedState {
  return Object.freeze({
    status: order.status,
    version: order.version,
    updatedAtMs: order.updatedAt.getTime(),
    history: Object.freeze(order.statusHistory.map((change) => Object.freeze({ status: change.status, atMs: change.at.getTime() }))),
    reason: order.reason,
  });
}
