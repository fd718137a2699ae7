/**
 * One customer's orders, kept sorted oldest first (created_at, then order_id) in a plain array so
 * that page N is an index range: O(limit) whatever N is. Rows are compact and frozen: the date is a
 * number (a Date could be changed in place with setTime) and the customer id lives on the log.
 */
import type { Order, OrderLine } from '@storefront/domain';
import { orderIdTime } from '@storefront/domain';
import type { OrderLinePool } from './order-line-pool.js';

export interface OrderRow {
  readonly orderId: string;
  readonly createdAtMs: number;
  readonly items: readonly OrderLine[];
  readonly amount: number;
  readonly currency: string;
}

export function toRow(order: Order, pool: OrderLinePool): OrderRow {
  const { orderId } = order;
  // V8 builds ids by concatenation as rope strings (~190 bytes); reading a character flattens
  // one into a plain string (~55 bytes), which matters at a million orders.
  orderId.charCodeAt(0);
  return Object.freeze({
    orderId,
    createdAtMs: order.createdAt.getTime(),
    items: pool.items(order.items),
    amount: order.amount,
    currency: order.currency,
  });
}

export function toOrder(row: OrderRow, customerId: string): Order {
  return {
    orderId: row.orderId,
    customerId,
    items: row.items,
    amount: row.amount,
    currency: row.currency,
    createdAt: new Date(row.createdAtMs),
  };
}

type RowKey = Pick<OrderRow, 'orderId' | 'createdAtMs'>;

function compareRows(a: RowKey, b: RowKey): number {
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs - b.createdAtMs;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}

export class CustomerOrderLog {
  private readonly rows: OrderRow[] = [];

  get size(): number {
    return this.rows.length;
  }

  /** Adds the row in order and returns the stored row: the existing one when it is already there. */
  add(row: OrderRow): OrderRow {
    const last = this.rows[this.rows.length - 1];
    // Orders are stamped in increasing order, so appending is the common case.
    if (last === undefined || compareRows(last, row) < 0) {
      this.rows.push(row);
      return row;
    }
    const at = this.lowerBound(row);
    const there = this.rows[at];
    if (there !== undefined && compareRows(there, row) === 0) return there;
    this.rows.splice(at, 0, row);
    return row;
  }

  /**
   * The row with this id. Order ids are the domain OrderStamper's: they carry their creation time,
   * which is the row's `createdAtMs`, so the row is found by binary search (an id of another shape,
   * by a scan).
   */
  find(orderId: string): OrderRow | undefined {
    const createdAtMs = orderIdTime(orderId);
    if (createdAtMs === undefined) return this.rows.find((row) => row.orderId === orderId);
    const there = this.rows[this.lowerBound({ orderId, createdAtMs })];
    return there?.orderId === orderId ? there : undefined;
  }

  slice(offset: number, limit: number): readonly OrderRow[] {
    return this.rows.slice(offset, offset + limit);
  }

  private lowerBound(row: RowKey): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareRows(this.rows[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
