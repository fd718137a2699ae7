/**
 * Each order's JSON text, rendered once per version. An order changes only by a move, and every
 * move raises its version, so (order id, version) names one text for good; lists and details are
 * assembled from these texts instead of serialising the same unchanged orders on every request
 * (rendering was most of the CPU time of `GET /api/orders?limit=20`; docs/performance.md).
 *
 * The cache is a Map in least-recently-used order, bounded by `maxEntries`: a hit moves its entry
 * to the end, a new entry past the bound evicts the first (the least recently used). Its memory is
 * the texts of at most that many orders, whatever the number of orders in the store.
 */
import type { Order, Page } from '@storefront/domain';
import { orderJson, pageMeta } from './mappers.js';

/** Default bound: the orders a busy kitchen and its customers read within a few minutes. */
export const ORDER_TEXT_CACHE_ENTRIES = 10_000;

interface Rendered {
  readonly version: number;
  readonly text: string;
}

export class OrderTexts {
  private readonly texts = new Map<string, Rendered>();

  constructor(readonly maxEntries = ORDER_TEXT_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be an integer ≥ 1, got ${maxEntries}`);
  }

  /** How many orders are cached now (never above `maxEntries`). */
  get size(): number {
    return this.texts.size;
  }

  /** Whether some version of the order is cached (for tests). */
  has(orderId: string): boolean {
    return this.texts.has(orderId);
  }

  /** The order as JSON text: the same bytes as `JSON.stringify(orderJson(order))`. */
  textOf(order: Order): string {
    const id = order.orderId;
    const cached = this.texts.get(id);
    if (cached !== undefined) {
      if (cached.version === order.version) {
        this.texts.delete(id);
        this.texts.set(id, cached);
        return cached.text;
      }
      // Another version (newer after a move, or older from a read that raced one): render it.
      this.texts.delete(id);
    }
    const text = JSON.stringify(orderJson(order));
    if (this.texts.size >= this.maxEntries) this.texts.delete(this.texts.keys().next().value!);
    this.texts.set(id, { version: order.version, text });
    return text;
  }

  /** `{"meta": ..., "orders": [...]}` of a page: the bytes of JSON.stringify, without re-rendering the orders. */
  pageText(page: Page<Order>): string {
    let orders = '';
    for (const order of page.items) orders += (orders === '' ? '' : ',') + this.textOf(order);
    return `{"meta":${JSON.stringify(pageMeta(page))},"orders":[${orders}]}`;
  }
}
