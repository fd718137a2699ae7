/**
 * One customer's orders, kept sorted oldest first (created_at, then order_id) in a plain array so
 * that page N is an index range: O(limit) whatever N is. Orders are stamped in increasing order,
 * so a new one is appended; a move replaces a row in place (its sort key never changes).
 */
import { compareRows, type OrderRow, type RowKey } from './order-row.js';

export class CustomerOrderLog {
  private readonly rows: OrderRow[] = [];

  /** @param customerId the one copy of the id that every row of this customer shares */
  constructor(readonly customerId: string) {}

  get size(): number {
    return this.rows.length;
  }

  /** Adds a row that is not stored yet (the repository checks), in order. */
  add(row: OrderRow): void {
    const last = this.rows[this.rows.length - 1];
    if (last === undefined || compareRows(last, row) < 0) this.rows.push(row);
    else this.rows.splice(this.lowerBound(row), 0, row);
  }

  /** Puts `row` where the row with its key is; false when there is none. */
  replace(row: OrderRow): boolean {
    const at = this.lowerBound(row);
    if (this.rows[at]?.orderId !== row.orderId) return false;
    this.rows[at] = row;
    return true;
  }

  slice(offset: number, limit: number): readonly OrderRow[] {
    return this.rows.slice(offset, offset + limit);
  }

  private lowerBound(key: RowKey): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareRows(this.rows[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
