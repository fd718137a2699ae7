/**
 * The memory store's outbox marks (InMemoryOrderRepository writes them with each change,
 * InMemoryOrderOutbox reads and raises them): the orders whose newest changes are not published yet, each with its
 * published mark. An order absent from it is published up to its version, so a published order
 * costs nothing here (most of a busy store, once the relay has caught up), and a pending one costs
 * one Map entry: its id (the row's own string) and the mark (a small integer, stored unboxed).
 *
 * A Map iterates in insertion order, and every change deletes and re-adds its order, so iteration
 * is the least recently changed first: the oldest due entries are read without walking the others.
 * That is the order of the changes as this process stored them, which is `updatedAt` order whenever
 * the changes' times came from a clock that does not go back (as the domain's do).
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
