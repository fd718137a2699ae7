/**
 * Orders as rows: the scalar fields as columns (the lists and the queue read them), the lines and
 * the status history as jsonb. Lines are copied field by field, so that neither extra properties
 * of the caller's objects nor later edits to them reach the store; history times are ISO strings
 * in jsonb and Dates again when read. Money is bigint, which node-postgres hands back as a string.
 * The tax columns (version 8) default to an untaxed order, and a line stored before them to rate 0.
 * The payment's columns (version 10) are NULL on an order without one (payment-mapper.ts).
 */
import type { DeliveryAddress, Fulfilment, Order, OrderLine, OrderStatus } from '@storefront/domain';
import type { FulfilmentType, OrderLineOption, StatusChange } from '@storefront/domain/adapter-kit';
import type { PaymentChangeNote } from '@storefront/domain/adapter-kit';
import { copyDeliveryAddress, withFields } from '@storefront/domain/adapter-kit';
import { paymentOf, paymentParameters, type PaymentColumns } from './payment-mapper.js';

/** The fulfilment as jsonb, without `promised_at` (a column of its own: the kitchen's sort key). */
interface FulfilmentJson {
  type: FulfilmentType;
  time: string;
  address?: DeliveryAddress;
  zone?: string;
}

/** A history entry as jsonb holds it. */
interface HistoryJson {
  status: OrderStatus;
  at: string;
  paymentChange?: PaymentChangeNote;
}

export interface OrderRow extends PaymentColumns {
  order_id: string;
  customer_id: string;
  items: OrderLine[];
  amount: string | number;
  currency: string;
  created_at: Date;
  status: OrderStatus;
  version: number;
  updated_at: Date;
  status_history: HistoryJson[];
  reason: string | null;
  subtotal: string | number;
  delivery_fee: string | number;
  tip: string | number;
  /** Null on orders written by version 1 of the schema's code (read as pickup, asap). */
  fulfilment: FulfilmentJson | null;
  promised_at: Date;
  prices_include_tax: boolean;
  /** Amounts are JSON numbers: exact for any amount an order can hold (below 2^53). */
  taxes: TaxLine[];
  tax_total: string | number;
}

type TaxLine = Order['taxes'][number];

/** The columns an Order is read from (a select list), for every query of this package. */
export const ORDER_COLUMNS =
  'order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, reason, subtotal, delivery_fee, tip, fulfilment, promised_at, prices_include_tax, taxes, tax_total, payment, payment_intent_id, payment_check_at';

/** The parameters of INSERT_ORDER, in its order. */
export function orderParameters(order: Order): unknown[] {
  return [
    order.orderId,
    order.customerId,
    JSON.stringify(order.items.map(copyLine)),
    order.amount,
    order.currency,
    new Date(order.createdAt.getTime()),
    order.status,
    order.version,
    new Date(order.updatedAt.getTime()),
    JSON.stringify(order.statusHistory.map(historyEntry)),
    order.reason ?? null,
    order.subtotal,
    order.deliveryFee,
    order.tip,
    JSON.stringify(fulfilmentJson(order.fulfilment)),
    new Date(order.fulfilment.promisedAt.getTime()),
    order.pricesIncludeTax,
    JSON.stringify(order.taxes.map(copyTaxLine)),
    order.taxTotal,
    ...paymentParameters(order.payment),
  ];
}

export const INSERT_ORDER = `INSERT INTO orders (${ORDER_COLUMNS}) VALUES (${ORDER_COLUMNS.split(',').map((_, i) => `$${i + 1}`).join(', ')})`;

function fulfilmentJson(f: Fulfilment): FulfilmentJson {
  const json: FulfilmentJson = { type: f.type, time: f.time };
  if (f.address !== undefined) json.address = copyDeliveryAddress(f.address);
  if (f.zone !== undefined) json.zone = f.zone;
  return json;
}

function fulfilmentOf(row: OrderRow): Fulfilment {
  const stored = row.fulfilment ?? { type: 'pickup', time: 'asap' };
  return {
    type: stored.type,
    time: stored.time,
    promisedAt: row.promised_at,
    ...(stored.address === undefined ? {} : { address: copyDeliveryAddress(stored.address) }),
    ...(stored.zone === undefined ? {} : { zone: stored.zone }),
  };
}


export function toOrder(row: OrderRow): Order {
  const order: Order = {
    orderId: row.order_id,
    customerId: row.customer_id,
    items: row.items.map(copyLine),
    subtotal: Number(row.subtotal),
    deliveryFee: Number(row.delivery_fee),
    tip: Number(row.tip),
    amount: Number(row.amount),
    pricesIncludeTax: row.prices_include_tax,
    taxes: row.taxes.map(copyTaxLine),
    taxTotal: Number(row.tax_total),
    currency: row.currency,
    createdAt: row.created_at,
    status: row.status,
    version: row.version,
    updatedAt: row.updated_at,
    statusHistory: row.status_history.map(statusChangeOf),
    fulfilment: fulfilmentOf(row),
  };
  const payment = paymentOf(row);
  const paid = payment === undefined ? order : withFields(order, { payment });
  return row.reason === null ? paid : withFields(paid, { reason: row.reason });
}

/** A history entry as jsonb holds it. */
export function historyEntry(change: StatusChange): HistoryJson {
  const entry = { status: change.status, at: change.at.toISOString() };
  return change.paymentChange === undefined ? entry : withFields(entry, { paymentChange: copyNote(change.paymentChange) });
}

function statusChangeOf(entry: HistoryJson): StatusChange {
  const change = { status: entry.status, at: new Date(entry.at) };
  return entry.paymentChange === undefined ? change : withFields(change, { paymentChange: copyNote(entry.paymentChange) });
}

function copyNote(note: PaymentChangeNote): PaymentChangeNote {
  return note.refundId === undefined ? {} : { refundId: note.refundId };
}

function copyLine(line: OrderLine): OrderLine {
  return {
    productId: line.productId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
    options: (line.options ?? []).map(copyOption),
    taxRate: line.taxRate ?? 0,
  };
}

function copyTaxLine(line: TaxLine): TaxLine {
  return { rate: line.rate, taxable: line.taxable, tax: line.tax };
}

function copyOption(option: OrderLineOption): OrderLineOption {
  return { optionId: option.optionId, name: option.name, priceDelta: option.priceDelta };
}
