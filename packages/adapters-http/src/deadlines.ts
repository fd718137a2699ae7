/**
 * Requests in flight, each with the same time allowance, in the order they started (which is the
 * order they expire): a linked list with one timer for the oldest. Starting and finishing a request
 * is a few pointer updates, cheaper than a `setTimeout` per request (docs/performance.md).
 */
interface Entry<T> {
  readonly item: T;
  readonly due: number;
  prev: Entry<T> | undefined;
  next: Entry<T> | undefined;
  /** Finished, or expired: either way no longer in the list. */
  done: boolean;
}

/** A started request: give it back to `finish`. */
export type Pending = object;

export class Deadlines<T> {
  private head: Entry<T> | undefined;
  private tail: Entry<T> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param allowanceMs how long each item may run
   * @param onExpire called once for an item still running after `allowanceMs`; must not throw
   * @param now a monotonic clock in ms
   */
  constructor(
    private readonly allowanceMs: number,
    private readonly onExpire: (item: T) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(item: T): Pending {
    const entry: Entry<T> = { item, due: this.now() + this.allowanceMs, prev: this.tail, next: undefined, done: false };
    if (this.tail === undefined) this.head = entry;
    else this.tail.next = entry;
    this.tail = entry;
    if (this.timer === undefined) this.arm(this.allowanceMs);
    return entry;
  }

  /** True if the item was still running (the caller answers it), false if it had already expired. */
  finish(pending: Pending): boolean {
    const entry = pending as Entry<T>;
    if (entry.done) return false;
    this.unlink(entry);
    return true;
  }

  /** How many items are running. O(n): for tests and diagnostics. */
  get size(): number {
    let n = 0;
    for (let entry = this.head; entry !== undefined; entry = entry.next) n++;
    return n;
  }

  private arm(ms: number): void {
    // The timer does not keep the process alive: a server that is closing waits for its requests anyway.
    this.timer = setTimeout(this.expire, Math.max(1, Math.ceil(ms)));
    this.timer.unref();
  }

  private readonly expire = (): void => {
    this.timer = undefined;
    const now = this.now();
    while (this.head !== undefined && this.head.due <= now) {
      const entry = this.head;
      this.unlink(entry);
      this.onExpire(entry.item);
    }
    // The head may have finished since the timer was set: wait for the new head only.
    if (this.head !== undefined) this.arm(this.head.due - now);
  };

  private unlink(entry: Entry<T>): void {
    entry.done = true;
    if (entry.prev === undefined) this.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) this.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = undefined;
    entry.next = undefined;
  }
}
