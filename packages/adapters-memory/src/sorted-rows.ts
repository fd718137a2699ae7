/**
 * Order rows sorted (created_at, then order_id, or another order given) for a list that changes in
 * the middle. Rows sit in chunks of at most CHUNK_MAX, so an insert or removal moves at most a
 * chunk, not every pointer after it, and a prefix count per chunk keeps rank and at at O(log n).
 * `reads` counts rows read, so a test checks a deep page costs what a first one does, untimed.
 */
import { compareRows, type OrderRow, type RowKey } from './order-row.js';

const CHUNK_MAX = 1024;

/** A position in the list that steps forward; valid until the list changes (callers do not await). */
export interface RowCursor {
  peek(): OrderRow | undefined;
  advance(): void;
}

export class SortedRows {
  /** `compare` orders the rows: placement (the default), or the kitchen's promise order. */
  constructor(private readonly compare: (a: RowKey, b: RowKey) => number = compareRows) {}

  private readonly chunks: OrderRow[][] = [];
  /** Rows before each chunk. */
  private readonly starts: number[] = [];
  private count = 0;
  reads = 0;

  get size(): number {
    return this.count;
  }

  /** How many rows sort before `key`. */
  rank(key: RowKey): number {
    const c = this.chunkFor(key);
    if (c < 0) return 0;
    return this.starts[c]! + this.lowerBound(this.chunks[c]!, key);
  }

  /** The row at `rank` (0 = the oldest). */
  at(rank: number): OrderRow | undefined {
    const c = this.chunkAt(rank);
    this.reads += 1;
    return c < 0 ? undefined : this.chunks[c]![rank - this.starts[c]!];
  }

  /** The stored row with `key`'s id and time, if any. */
  find(key: RowKey): OrderRow | undefined {
    const c = this.chunkFor(key);
    if (c < 0) return undefined;
    const row = this.chunks[c]![this.lowerBound(this.chunks[c]!, key)];
    return row?.orderId === key.orderId && row.createdAtMs === key.createdAtMs ? row : undefined;
  }

  /** Adds a row that is not in the list yet (the repository checks). */
  insert(row: OrderRow): void {
    const c = this.chunkFor(row);
    if (c < 0) {
      this.chunks.push([row]);
      this.starts.push(0);
    } else {
      const chunk = this.chunks[c]!;
      const at = this.lowerBound(chunk, row);
      if (at === chunk.length) chunk.push(row);
      else chunk.splice(at, 0, row);
      if (chunk.length > CHUNK_MAX) {
        // Two exact copies rather than a splice: a grown array keeps its spare capacity, and at a
        // million rows appended in order the full chunks left behind would hold half as much again.
        this.chunks.splice(c, 1, chunk.slice(0, CHUNK_MAX >> 1), chunk.slice(CHUNK_MAX >> 1));
        this.starts.splice(c + 1, 0, 0);
      }
      this.recount(c + 1);
    }
    this.count += 1;
  }

  /** Removes the row with `key`'s id and time; false when it is not in the list. */
  remove(key: RowKey): boolean {
    const c = this.chunkFor(key);
    if (c < 0) return false;
    const chunk = this.chunks[c]!;
    const at = this.lowerBound(chunk, key);
    if (chunk[at]?.orderId !== key.orderId) return false;
    chunk.splice(at, 1);
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.starts.splice(c, 1);
      this.recount(c);
    } else {
      this.recount(c + 1);
    }
    this.count -= 1;
    return true;
  }

  /** A cursor on the row at `rank`. */
  cursor(rank: number): RowCursor {
    let c = Math.max(0, this.chunkAt(rank));
    let at = rank - (this.starts[c] ?? 0);
    const { chunks } = this;
    return {
      peek: () => {
        const row = chunks[c]?.[at];
        if (row !== undefined) this.reads += 1;
        return row;
      },
      advance: () => {
        at += 1;
        if (at >= (chunks[c]?.length ?? 0)) {
          c += 1;
          at = 0;
        }
      },
    };
  }

  /** The chunk that holds `key` or would: the first whose last row is not before it (else the last). */
  private chunkFor(key: RowKey): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = this.chunks[mid]!;
      this.reads += 1;
      if (this.compare(chunk[chunk.length - 1]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return hi;
  }

  /** The chunk holding the row at `rank`, or -1 when the list is empty. */
  private chunkAt(rank: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= rank) lo = mid;
      else hi = mid - 1;
    }
    return hi;
  }

  private lowerBound(chunk: readonly OrderRow[], key: RowKey): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      this.reads += 1;
      if (this.compare(chunk[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private recount(from: number): void {
    for (let i = Math.max(1, from); i < this.chunks.length; i++) this.starts[i] = this.starts[i - 1]! + this.chunks[i - 1]!.length;
    if (from === 0 && this.starts.length > 0) this.starts[0] = 0;
  }
}
