/**
 * One timer for many periodic visits: items dealt round-robin into `slots` buckets, one bucket
 * visited every `periodMs / slots`, so each item is visited once per period, the work spread
 * evenly and no stream holds a timer (figures: docs/performance.md). The timer runs only while
 * there is something to visit, and never keeps the process alive.
 */
import { systemTimers, type Timer, type Timers } from '@storefront/domain/adapter-kit';

export class SlotTicker<T> {
  private readonly buckets: Set<T>[];
  private readonly bucketOf = new Map<T, Set<T>>();
  private readonly tickMs: number;
  /** The bucket the next item joins. */
  private dealt = 0;
  /** The bucket the next tick visits. */
  private due = 0;
  private timer: Timer | undefined;

  constructor(
    periodMs: number,
    slots: number,
    private readonly visit: (item: T) => void,
    private readonly failed: (error: unknown) => void,
    private readonly timers: Timers = systemTimers,
  ) {
    if (!(periodMs > 0) || !Number.isSafeInteger(slots) || slots < 1) throw new RangeError(`bad ticker: period ${periodMs} ms in ${slots} slots`);
    this.buckets = Array.from({ length: slots }, () => new Set<T>());
    this.tickMs = Math.max(1, Math.floor(periodMs / slots));
  }

  /** Items being visited. */
  get size(): number {
    return this.bucketOf.size;
  }

  /** Whether the timer is running (for tests: it stops once nothing is left). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  add(item: T): void {
    if (this.bucketOf.has(item)) return;
    const bucket = this.buckets[this.dealt]!;
    this.dealt = (this.dealt + 1) % this.buckets.length;
    bucket.add(item);
    this.bucketOf.set(item, bucket);
    if (this.timer === undefined) {
      this.timer = this.timers.setInterval(() => this.tick(), this.tickMs);
      this.timer.unref?.();
    }
  }

  delete(item: T): void {
    const bucket = this.bucketOf.get(item);
    if (bucket === undefined) return;
    bucket.delete(item);
    this.bucketOf.delete(item);
    if (this.bucketOf.size === 0 && this.timer !== undefined) {
      this.timers.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private tick(): void {
    const bucket = this.buckets[this.due]!;
    this.due = (this.due + 1) % this.buckets.length;
    // A visit may delete its item (a stream that ends): a Set allows that while iterating.
    for (const item of bucket) {
      try {
        this.visit(item);
      } catch (error) {
        this.failed(error);
      }
    }
  }
}
