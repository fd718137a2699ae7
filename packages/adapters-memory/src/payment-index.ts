/**
 * The memory store's index of card payments, written by InMemoryOrderRepository in the same step as
 * each change: intent → order (unique, for the provider's events) and the orders' next checks (for
 * the sweeper). Checks sit in a min-heap by time; a change pushes the new time and leaves the old
 * entry, which is dropped when it surfaces (`due` holds each order's current time), and the heap is
 * rebuilt once stale entries outnumber live ones, so its size follows the orders waiting.
 */
import { MinHeap } from './min-heap.js';
import type { RowPayment } from './payment-row.js';

interface Check {
  readonly atMs: number;
  readonly orderId: string;
}

const earlier = (a: Check, b: Check): boolean => a.atMs < b.atMs || (a.atMs === b.atMs && a.orderId < b.orderId);

/** Stale entries allowed beyond the live ones before a rebuild. */
const SLACK = 1024;

/** An intent already belongs to another order: as a unique index in a database, nothing is written. */
export class IntentTakenError extends Error {
  constructor(readonly intentId: string) {
    super(`payment intent ${intentId} belongs to another order`);
    this.name = 'IntentTakenError';
  }
}

export class PaymentIndex {
  private readonly intents = new Map<string, string>();
  /** The current next check of each order that has one. */
  private readonly due = new Map<string, number>();
  private checks = new MinHeap<Check>(earlier);

  /** Heap entries, stale ones included: a test can check that they stay bounded. */
  get heapSize(): number {
    return this.checks.size;
  }

  orderOf(intentId: string): string | undefined {
    return this.intents.get(intentId);
  }

  /** Throws IntentTakenError when `payment`'s intent belongs to an order other than `orderId`. */
  checkIntent(orderId: string, payment: RowPayment | undefined): void {
    if (payment === undefined) return;
    const owner = this.intents.get(payment.intentId);
    if (owner !== undefined && owner !== orderId) throw new IntentTakenError(payment.intentId);
  }

  /** The order's payment went from `before` to `after` (checked by checkIntent first). */
  changed(orderId: string, before: RowPayment | undefined, after: RowPayment | undefined): void {
    if (before === after) return;
    if (before !== undefined && before.intentId !== after?.intentId && this.intents.get(before.intentId) === orderId) {
      this.intents.delete(before.intentId);
    }
    if (after !== undefined) this.intents.set(after.intentId, orderId);
    const atMs = after?.checkAtMs ?? null;
    if (atMs === (before?.checkAtMs ?? null)) return;
    if (atMs === null) this.due.delete(orderId);
    else {
      this.due.set(orderId, atMs);
      this.checks.push({ atMs, orderId });
    }
    if (this.checks.size > 2 * this.due.size + SLACK) this.rebuild();
  }

  /** The order's check was claimed and moved to `atMs` (a lease): due again then, whatever it was. */
  leased(orderId: string, atMs: number): void {
    this.due.set(orderId, atMs);
    this.checks.push({ atMs, orderId });
  }

  /**
   * At most `limit` orders whose check is at or before `nowMs`, earliest first, each once; taken off
   * the heap, so the caller leases each one (`leased`).
   */
  takeDue(nowMs: number, limit: number): string[] {
    const taken: string[] = [];
    for (let top = this.checks.peek(); top !== undefined && top.atMs <= nowMs && taken.length < limit; top = this.checks.peek()) {
      this.checks.pop();
      // A stale entry (the order's check moved since), or a second push of the same time.
      if (this.due.get(top.orderId) !== top.atMs || taken.includes(top.orderId)) continue;
      taken.push(top.orderId);
    }
    return taken;
  }

  private rebuild(): void {
    this.checks = new MinHeap<Check>(earlier);
    for (const [orderId, atMs] of this.due) this.checks.push({ atMs, orderId });
  }
}
