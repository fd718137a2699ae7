/**
 * Every order in two sorted lists per status: by promise (the kitchen's queue) and by placement
 * (the way to an order by id: an id carries its creation time, so at most eight lists are
 * searched). A page over several statuses needs no walk: per list, a binary search for how many of
 * its rows precede the page, then a merge of `limit` rows (cost: docs/performance.md).
 */
import type { OrderStatus } from '@storefront/domain';
import { ORDER_STATUSES } from '@storefront/domain';
import { compareKitchenRows, statusOf, type OrderRow, type RowKey } from './order-row.js';
import { SortedRows, type RowCursor } from './sorted-rows.js';

export class StatusQueues {
  /** By placement: the way to a row by the time its id carries. */
  private readonly byPlacement = new Map<OrderStatus, SortedRows>(ORDER_STATUSES.map((status) => [status, new SortedRows()]));
  /** By promise (promised_at, then placement): the kitchen's pages. */
  private readonly lists = new Map<OrderStatus, SortedRows>(ORDER_STATUSES.map((status) => [status, new SortedRows(compareKitchenRows)]));

  /** Rows compared or read by the kitchen's lists so far (see SortedRows.reads). */
  get reads(): number {
    let reads = 0;
    for (const list of this.lists.values()) reads += list.reads;
    return reads;
  }

  add(row: OrderRow): void {
    this.byPlacement.get(statusOf(row))!.insert(row);
    this.list(statusOf(row)).insert(row);
  }

  /** Takes `before` out of its status's lists and puts `after` in its own. */
  move(before: OrderRow, after: OrderRow): void {
    this.byPlacement.get(statusOf(before))!.remove(before);
    this.list(statusOf(before)).remove(before);
    this.byPlacement.get(statusOf(after))!.insert(after);
    this.list(statusOf(after)).insert(after);
  }

  /** The row with this key, whatever its status. */
  find(key: RowKey): OrderRow | undefined {
    for (const list of this.byPlacement.values()) {
      const row = list.find(key);
      if (row !== undefined) return row;
    }
    return undefined;
  }

  /** Rows `offset` to `offset + limit` of the statuses' lists merged in the kitchen's order, and their total. */
  page(statuses: readonly OrderStatus[], offset: number, limit: number): { rows: OrderRow[]; total: number } {
    const lists = [...new Set(statuses)].map((status) => this.list(status));
    const total = lists.reduce((sum, list) => sum + list.size, 0);
    const rows: OrderRow[] = [];
    if (offset >= total || limit <= 0) return { rows, total };
    const cursors = lists.map((list, i) => list.cursor(lists.length === 1 ? offset : this.rowsBefore(lists, i, offset)));
    while (rows.length < limit) {
      const next = oldestHead(cursors);
      if (next === undefined) break;
      rows.push(next.row);
      next.cursor.advance();
    }
    return { rows, total };
  }

  /** How many rows of `lists[i]` are among the first `offset` of all the lists merged. */
  private rowsBefore(lists: readonly SortedRows[], i: number, offset: number): number {
    const own = lists[i]!;
    let lo = 0;
    let hi = own.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const row = own.at(mid)!;
      let rank = mid;
      for (let j = 0; j < lists.length; j++) if (j !== i) rank += lists[j]!.rank(row);
      if (rank < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private list(status: OrderStatus): SortedRows {
    const list = this.lists.get(status);
    if (list === undefined) throw new Error(`unknown order status ${String(status)}`);
    return list;
  }
}

function oldestHead(cursors: readonly RowCursor[]): { row: OrderRow; cursor: RowCursor } | undefined {
  let best: { row: OrderRow; cursor: RowCursor } | undefined;
  for (const cursor of cursors) {
    const row = cursor.peek();
    if (row !== undefined && (best === undefined || compareKitchenRows(row, best.row) < 0)) best = { row, cursor };
  }
  return best;
}
