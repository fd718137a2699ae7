/**
 * The memory store's outbox marks: the orders whose newest changes are not published yet, each with
 * its published mark (InMemoryOrderRepository writes them, InMemoryOrderOutbox reads and raises
 * them). A published order costs nothing here. Every change deletes and re-adds its order, so the
 * Map's insertion order is least recently changed first, `updatedAt` order when the clock does not
 * go back: the oldest due entries are read without walking the others.
 */
export class OutboxMarks {
  private readonly pending = new Map<string, number>();

  /** Pending orders: a test can check that publishing leaves nothing behind. */
  get size(): number {
    return this.pending.size;
  }

  /** A new order: none of its versions is published. */
  added(orderId: string): void {
    this.pending.set(orderId, 0);
  }

  /** The order moved on from `fromVersion`: it becomes the most recently changed, its mark kept. */
  changed(orderId: string, fromVersion: number): void {
    const mark = this.pending.get(orderId) ?? fromVersion;
    this.pending.delete(orderId);
    this.pending.set(orderId, mark);
  }

  /** The first `limit` pending orders, least recently changed first, with their marks. */
  due(limit: number): Array<readonly [orderId: string, publishedVersion: number]> {
    const due: Array<readonly [string, number]> = [];
    const max = Math.floor(limit);
    if (!(max >= 1)) return due;
    for (const entry of this.pending) {
      due.push(entry);
      if (due.length >= max) break;
    }
    return due;
  }

  /**
   * Raises the order's mark to `version`, whose stored version is `storedVersion`; at the stored
   * version it is published and leaves. A lower mark, a version the order does not have (it would
   * hide the changes still to come) and an order that is not pending change nothing.
   */
  mark(orderId: string, version: number, storedVersion: number): void {
    const mark = this.pending.get(orderId);
    if (mark === undefined || version <= mark || version > storedVersion) return;
    // Setting an existing key keeps its place: a mark is not a change of the order.
    if (version === storedVersion) this.pending.delete(orderId);
    else this.pending.set(orderId, version);
  }
}
