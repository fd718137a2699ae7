/**
 * An order as the memory store keeps it: a compact frozen row. Dates are numbers (a Date can be
 * changed with setTime), lines shared through the OrderLinePool; an order still placed has no
 * lifecycle fields (status, version 1 and history follow from `createdAtMs`), and a moved order's
 * dates are one array of numbers, not an object per history entry. Rows never change; moves swap.
 * A card payment and the history's payment-only notes are kept apart, on the rows that have them.
 */
import type { DeliveryAddress, Fulfilment, Order, OrderStatus } from '@storefront/domain';
import type { FulfilmentType, OrderMove, PaymentChangeNote, StatusChange } from '@storefront/domain/adapter-kit';
import { ORDER_STATUSES } from '@storefront/domain';
import { copyDeliveryAddress, withFields } from '@storefront/domain/adapter-kit';
import { paymentOf, toRowPayment, type RowPayment } from './payment-row.js';

/** An order's fulfilment and charges as a row keeps them; rows of pickup as soon as possible without a tip share one. */
export interface RowFulfilment {
  readonly type: FulfilmentType;
  readonly time: string;
  readonly address?: DeliveryAddress;
  readonly zone?: string;
  readonly deliveryFee: number;
  readonly tip: number;
}

const PLAIN_PICKUP: RowFulfilment = Object.freeze({ type: 'pickup', time: 'asap', deliveryFee: 0, tip: 0 });

/** An order's taxes as a row keeps them; absent for an untaxed order (tax added on top, no tax lines). */
export interface RowTax {
  readonly pricesIncludeTax: boolean;
  readonly taxes: Order['taxes'];
  readonly taxTotal: number;
}

const NO_TAX_ROW: RowTax = Object.freeze({ pricesIncludeTax: false, taxes: Object.freeze([]), taxTotal: 0 });
import type { OrderLinePool } from './order-line-pool.js';

export interface OrderRow {
  readonly orderId: string;
  readonly customerId: string;
  readonly createdAtMs: number;
  readonly items: Order['items'];
  readonly amount: number;
  readonly currency: string;
  /** The lifecycle fields, absent while the order is as placed. */
  readonly status?: OrderStatus;
  readonly version?: number;
  /**
   * `[updatedAtMs, ...history]`, each history entry packed into one number as `atMs * 8 + the
   * status's index in ORDER_STATUSES` (exact: epoch milliseconds times 8 stay far below 2^53).
   * Never handed out, so never copied: a move makes a new array.
   */
  readonly lifecycle?: readonly number[];
  readonly reason?: string;
  /** When the order is promised; absent for an order stored before fulfilment existed (then: createdAtMs). */
  readonly promisedAtMs?: number;
  /** Absent as `promisedAtMs` is: pickup, no fee, no tip. */
  readonly fulfilment?: RowFulfilment;
  /** Absent for an order without taxes, as every order placed before taxes. */
  readonly tax?: RowTax;
  /** Absent for an order paid on pickup or delivery. */
  readonly payment?: RowPayment;
  /** The history entries that changed the payment alone, by index, ascending; absent when none did. */
  readonly notes?: readonly HistoryNote[];
}

/** A history entry's payment-only change: `index` counts from 0, the first entry. */
export interface HistoryNote {
  readonly index: number;
  readonly note: PaymentChangeNote;
}

/** The sort key of every list of the store: created_at, then order_id. */
export type RowKey = Pick<OrderRow, 'orderId' | 'createdAtMs' | 'promisedAtMs'>;

export function compareRows(a: RowKey, b: RowKey): number {
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs - b.createdAtMs;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}

/** The kitchen's order: promised_at, then placement. */
export function compareKitchenRows(a: RowKey, b: RowKey): number {
  const dp = (a.promisedAtMs ?? a.createdAtMs) - (b.promisedAtMs ?? b.createdAtMs);
  return dp !== 0 ? dp : compareRows(a, b);
}

export function statusOf(row: OrderRow): OrderStatus {
  return row.status ?? 'placed';
}

export function versionOf(row: OrderRow): number {
  return row.version ?? 1;
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
    promisedAtMs: order.fulfilment.promisedAt.getTime(),
    fulfilment: rowFulfilment(order),
    ...rowTax(order),
    ...(order.payment === undefined ? {} : { payment: toRowPayment(order.payment) }),
  };
  if (isAsPlaced(order, createdAtMs)) return Object.freeze(row);
  const history = order.statusHistory.map((change) => pack(change.status, change.at.getTime()));
  const notes = historyNotes(order.statusHistory);
  const withNotes = notes === undefined ? row : withFields(row, { notes });
  return withLifecycle(withNotes, order.status, order.version, [order.updatedAt.getTime()].concat(history), order.reason);
}

/** The row after `move` (the caller has checked the version): a new history entry, the move's payment if it has one. */
export function movedRow(row: OrderRow, move: OrderMove): OrderRow {
  const atMs = move.at.getTime();
  const history = row.lifecycle === undefined ? [pack('placed', row.createdAtMs)] : row.lifecycle.slice(1);
  // concat allocates exactly what it needs; a spread or push would leave spare capacity (~130 bytes a row).
  const lifecycle = [atMs].concat(history, [pack(move.status, atMs)]);
  let base = row;
  if (move.payment !== undefined) base = withFields(base, { payment: toRowPayment(move.payment) });
  if (move.paymentChange !== undefined) {
    const added: HistoryNote = Object.freeze({ index: history.length, note: copyNote(move.paymentChange) });
    base = withFields(base, { notes: Object.freeze((row.notes ?? []).concat([added])) });
  }
  return withLifecycle(base, move.status, versionOf(row) + 1, lifecycle, move.reason ?? row.reason);
}

/** The row with its payment replaced, nothing else changed (a check's lease is no change of the order). */
export function withPayment(row: OrderRow, payment: RowPayment): OrderRow {
  return Object.freeze(withFields(row, { payment }));
}

export function toOrder(row: OrderRow): Order {
  const { lifecycle } = row;
  const createdAt = new Date(row.createdAtMs);
  const statusHistory: StatusChange[] = [];
  // An order as placed was created, placed and last updated at one time: one Date serves the three
  // (a copy handed out; the row keeps numbers, so no reader can change the store through it).
  if (lifecycle === undefined) statusHistory.push({ status: 'placed', at: createdAt });
  else for (let i = 1; i < lifecycle.length; i++) statusHistory.push(unpack(lifecycle[i]!));
  if (row.notes !== undefined) addNotes(statusHistory, row.notes);
  const { deliveryFee, tip } = row.fulfilment ?? PLAIN_PICKUP;
  const { pricesIncludeTax, taxes, taxTotal } = row.tax ?? NO_TAX_ROW;
  const order: Order = {
    orderId: row.orderId,
    customerId: row.customerId,
    items: row.items,
    subtotal: row.amount - deliveryFee - tip - (pricesIncludeTax ? 0 : taxTotal),
    deliveryFee,
    tip,
    amount: row.amount,
    pricesIncludeTax,
    taxes,
    taxTotal,
    currency: row.currency,
    createdAt,
    status: statusOf(row),
    version: versionOf(row),
    updatedAt: lifecycle === undefined ? createdAt : new Date(lifecycle[0]!),
    statusHistory,
    fulfilment: fulfilmentOf(row),
  };
  const withPaymentOf = row.payment === undefined ? order : withFields(order, { payment: paymentOf(row.payment) });
  return row.reason === undefined ? withPaymentOf : withFields(withPaymentOf, { reason: row.reason });
}

function withLifecycle(row: OrderRow, status: OrderStatus, version: number, lifecycle: number[], reason: string | undefined): OrderRow {
  const moved: OrderRow = {
    orderId: row.orderId,
    customerId: row.customerId,
    createdAtMs: row.createdAtMs,
    items: row.items,
    amount: row.amount,
    currency: row.currency,
    status,
    version,
    lifecycle,
    ...promise(row),
    ...(row.tax === undefined ? {} : { tax: row.tax }),
    ...(row.payment === undefined ? {} : { payment: row.payment }),
    ...(row.notes === undefined ? {} : { notes: row.notes }),
  };
  return Object.freeze(reason === undefined ? moved : withFields(moved, { reason }));
}

/** The row without the delivery address (erasure); the same row when it has none. */
export function withoutAddress(row: OrderRow): OrderRow {
  if (row.fulfilment?.address === undefined) return row;
  const { address: _address, ...fulfilment } = row.fulfilment;
  return Object.freeze(withFields(row, { fulfilment: Object.freeze(fulfilment) }));
}

/** The row's promise fields, for a copy of it. */
function promise(row: OrderRow): Pick<OrderRow, 'promisedAtMs' | 'fulfilment'> {
  return row.promisedAtMs === undefined ? {} : { promisedAtMs: row.promisedAtMs, fulfilment: row.fulfilment! };
}

/** When the kitchen is to hand the order over: its promise, or its placement for an order stored before promises. */
export function promisedAtMsOf(row: OrderRow): number {
  return row.promisedAtMs ?? row.createdAtMs;
}

function rowFulfilment(order: Order): RowFulfilment {
  const { fulfilment: f, deliveryFee, tip } = order;
  if (f.type === 'pickup' && f.time === 'asap' && deliveryFee === 0 && tip === 0) return PLAIN_PICKUP;
  return Object.freeze({
    type: f.type,
    time: f.time,
    ...(f.address === undefined ? {} : { address: Object.freeze(copyDeliveryAddress(f.address)) }),
    ...(f.zone === undefined ? {} : { zone: f.zone }),
    deliveryFee,
    tip,
  });
}

function rowTax(order: Order): Pick<OrderRow, 'tax'> {
  const { pricesIncludeTax, taxes, taxTotal } = order;
  if (!pricesIncludeTax && taxes.length === 0 && taxTotal === 0) return {};
  const lines = Object.freeze(taxes.map(({ rate, taxable, tax }) => Object.freeze({ rate, taxable, tax })));
  return { tax: Object.freeze({ pricesIncludeTax, taxes: lines, taxTotal }) };
}

function fulfilmentOf(row: OrderRow): Fulfilment {
  const f = row.fulfilment ?? PLAIN_PICKUP;
  const fulfilment: Fulfilment = { type: f.type, time: f.time, promisedAt: new Date(promisedAtMsOf(row)) };
  if (f.address === undefined && f.zone === undefined) return fulfilment;
  return { ...fulfilment, ...(f.address === undefined ? {} : { address: f.address }), ...(f.zone === undefined ? {} : { zone: f.zone }) };
}

function pack(status: OrderStatus, atMs: number): number {
  return atMs * 8 + ORDER_STATUSES.indexOf(status);
}

function unpack(packed: number): StatusChange {
  const atMs = Math.floor(packed / 8);
  return { status: ORDER_STATUSES[packed - atMs * 8]!, at: new Date(atMs) };
}

function historyNotes(history: readonly StatusChange[]): readonly HistoryNote[] | undefined {
  let notes: HistoryNote[] | undefined;
  for (let index = 0; index < history.length; index++) {
    const note = history[index]!.paymentChange;
    if (note !== undefined) (notes ??= []).push(Object.freeze({ index, note: copyNote(note) }));
  }
  return notes === undefined ? undefined : Object.freeze(notes);
}

function copyNote(note: PaymentChangeNote): PaymentChangeNote {
  return Object.freeze(note.refundId === undefined ? {} : { refundId: note.refundId });
}

/** Puts each note back on its entry, as a note of its own (the row's stays frozen and unshared). */
function addNotes(history: StatusChange[], notes: readonly HistoryNote[]): void {
  for (const { index, note } of notes) {
    const change = history[index];
    if (change === undefined) continue;
    history[index] = { ...change, paymentChange: note.refundId === undefined ? {} : { refundId: note.refundId } };
  }
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
    first.paymentChange === undefined &&
    first.at.getTime() === createdAtMs
  );
}
