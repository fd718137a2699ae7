/**
 * Each order's JSON, rendered once per version and kept as UTF-8 bytes, so that lists and details
 * are assembled instead of serialising the same unchanged orders on every request
 * (docs/performance.md). (order id, version, whether it has an address) names one rendering for
 * good on every instance: a move raises the version, an erasure removes the address. A Map in
 * least-recently-used order, bounded by `maxEntries`, whatever the number of orders in the store
 * (evicted a sixteenth at a time).
 *
 * The cache holds the shared rendering only, the one without the payment's client secret: the
 * owner's view of an order awaiting its payment is rendered on each request and never kept (such
 * orders are few and short-lived), so cached bytes can go to staff as they are.
 */
import type { Order, Page } from '@storefront/domain';
import { orderJson, pageMeta, type OrderView } from './mappers.js';
import { secretShown } from './payment-json.js';
import { keptBytes } from './kept-bytes.js';

/** Default bound: the orders a busy kitchen and its customers read within a few minutes. */
export const ORDER_TEXT_CACHE_ENTRIES = 10_000;

interface Rendered {
  readonly version: number;
  /** False once the address was erased: the rendering with it must never be served again. */
  readonly hasAddress: boolean;
  /** UTF-8, ready to write: a body assembled from these is never encoded again. Its own buffer (kept-bytes.ts). */
  readonly bytes: Buffer;
}

const COMMA = Buffer.from(',');
const PAGE_END = Buffer.from(']}');

export class OrderJsonCache {
  private readonly entries = new Map<string, Rendered>();

  constructor(readonly maxEntries = ORDER_TEXT_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be an integer ≥ 1, got ${maxEntries}`);
  }

  /** How many orders are cached now (never above `maxEntries`). */
  get size(): number {
    return this.entries.size;
  }

  /** Whether some version of the order is cached (for tests). */
  has(orderId: string): boolean {
    return this.entries.has(orderId);
  }

  /** The order as JSON for `view`: the UTF-8 bytes of `JSON.stringify(orderJson(order, view))`. */
  bytesOf(order: Order, view: OrderView = 'shared'): Buffer {
    if (view === 'owner' && secretShown(order) !== undefined) return Buffer.from(JSON.stringify(orderJson(order, 'owner')));
    const id = order.orderId;
    const cached = this.entries.get(id);
    const hasAddress = order.fulfilment.address !== undefined;
    if (cached !== undefined) {
      if (cached.version === order.version && cached.hasAddress === hasAddress) {
        this.entries.delete(id);
        this.entries.set(id, cached);
        return cached.bytes;
      }
      // Another version (newer after a move, or older from a read that raced one), or erased: render it.
      this.entries.delete(id);
    }
    const bytes = keptBytes(JSON.stringify(orderJson(order)));
    if (this.entries.size >= this.maxEntries) this.evict();
    this.entries.set(id, { version: order.version, hasAddress, bytes });
    return bytes;
  }

  /**
   * Drops the least recently used sixteenth (at least one). In batches because a Map keeps its
   * deleted entries as holes until it rehashes, and each fresh iterator walks past all of them:
   * evicting one entry per insert cost about 4 µs at 10,000 entries, the batch costs that once.
   */
  private evict(): void {
    let excess = this.entries.size - this.maxEntries + Math.max(1, this.maxEntries >> 4);
    for (const id of this.entries.keys()) {
      if (excess-- <= 0) break;
      this.entries.delete(id);
    }
  }

  /** `{"meta": ..., "orders": [...]}` of a page for `view`: the bytes of JSON.stringify, without re-rendering the orders. */
  pageBytes(page: Page<Order>, view: OrderView = 'shared'): Buffer {
    const parts: Buffer[] = [Buffer.from(`{"meta":${JSON.stringify(pageMeta(page))},"orders":[`)];
    for (const order of page.items) {
      if (parts.length > 1) parts.push(COMMA);
      parts.push(this.bytesOf(order, view));
    }
    parts.push(PAGE_END);
    return Buffer.concat(parts);
  }
}
