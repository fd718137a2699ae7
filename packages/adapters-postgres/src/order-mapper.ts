/**
 * Orders as rows: the scalar fields as columns (the lists and the queue read them), the lines and
 * the status history as jsonb. Lines are copied field by field, so that neither extra properties
 * of the caller's objects nor later edits to them reach the store; history times are ISO strings
 * in jsonb and Dates again when read. Money is bigint, which node-postgres hands back as a string.
 */
import type { Order, OrderLine, OrderLineOption, OrderStatus, StatusChange } from '@storefront/domain';

export interface OrderRow {
  order_id: string;
  customer_id: string;
  items: OrderLine[];
  amount: string | number;
  currency: string;
  created_at: Date;
  status: OrderStatus;
  version: number;
  updated_at: Date;
  status_history: { status: OrderStatus; at: string }[];
  reason: string | null;
}

/** The columns an Order is read from (a select list), for every query of this package. */
export const ORDER_COLUMNS = 'order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, reason';

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
  ];
}

export const INSERT_ORDER = `INSERT INTO orders (${ORDER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

export function toOrder(row: OrderRow): Order {
  const order: Order = {
    orderId: row.order_id,
    customerId: row.customer_id,
    items: row.items.map(copyLine),
    amount: Number(row.amount),
    currency: row.currency,
    createdAt: row.created_at,
    status: row.status,
    version: row.version,
    updatedAt: row.updated_at,
    statusHistory: row.status_history.map((change): StatusChange => ({ status: change.status, at: new Date(change.at) })),
  };
  return row.reason === null ? order : { ...order, reason: row.reason };
}

/** A history entry as jsonb holds it. */
export function historyEntry(change: StatusChange): { status: OrderStatus; at: string } {
  return { status: change.status, at: change.at.toISOString() };
}

function copyLine(line: OrderLine): OrderLine {
  return {
    productId: line.productId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
    options: (line.options ?? []).map(copyOption),
  };
}

function copyOption(option: OrderLineOption): OrderLineOption {
  return { optionId: option.optionId, name: option.name, priceDelta: option.priceDelta };
}
