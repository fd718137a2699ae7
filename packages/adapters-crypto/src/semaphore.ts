/**
 * A counting semaphore with a bounded wait: at most `permits` tasks run at once, the rest wait in
 * FIFO order, but only so many (`maxQueue`) and only so long (`maxWaitMs`); a waiter whose caller
 * gave up (its `signal` fired) leaves the queue at once. Used to bound concurrent scrypt work, whose
 * memory cost (128 · N · r bytes each) would otherwise grow with the number of simultaneous logins,
 * and to answer a login that cannot be served soon at once instead of after the request time-out
 * (when nobody is left to read its answer, and its hash would only delay the others).
 */
import type { AbortSignalLike } from '@storefront/domain';

export interface SemaphoreStats {
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a permit. */
  readonly queued: number;
  /** The most tasks ever seen running at once. */
  readonly peakActive: number;
  /** Tasks started since creation. */
  readonly started: number;
  /** Tasks refused because the queue was full, or dropped because they waited `maxWaitMs`. */
  readonly refused: number;
  /** Tasks dropped because their signal fired before they started (their caller gave up). */
  readonly abandoned: number;
}

export interface SemaphoreOptions {
  /** Waiting tasks allowed; one more is refused at once. Default: no bound. 0: never wait. */
  readonly maxQueue?: number;
  /** A task that has waited this long without a permit is refused. Default: no deadline. */
  readonly maxWaitMs?: number;
  /** A monotonic clock in ms (tests may pass their own). */
  readonly now?: () => number;
}

export type SemaphoreRefusal = 'full' | 'timeout' | 'aborted';

/** Why a task was never run. Nothing ran: the caller may say "busy" (full, timeout) or nothing (aborted). */
export class SemaphoreRefusedError extends Error {
  constructor(readonly reason: SemaphoreRefusal) {
    super(
      reason === 'full' ? 'too many tasks are waiting' : reason === 'timeout' ? 'the task waited too long for a permit' : 'the caller gave up before the task started',
    );
    this.name = 'SemaphoreRefusedError';
  }
}

/** A waiting task, in a doubly linked list so that an abandoned one leaves in O(1). */
interface Waiter {
  readonly due: number;
  readonly grant: () => void;
  readonly refuse: (reason: SemaphoreRefusal) => void;
  prev: Waiter | undefined;
  next: Waiter | undefined;
}

export class Semaphore {
  readonly maxQueue: number;
  readonly maxWaitMs: number;
  private active = 0;
  private peakActive = 0;
  private started = 0;
  private refused = 0;
  private abandoned = 0;
  private queued = 0;
  private head: Waiter | undefined;
  private tail: Waiter | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(
    readonly permits: number,
    options: SemaphoreOptions = {},
  ) {
    if (!Number.isInteger(permits) || permits < 1) {
      throw new RangeError(`permits must be a positive integer, got ${permits}`);
    }
    this.maxQueue = options.maxQueue ?? Number.POSITIVE_INFINITY;
    this.maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
    if (!(this.maxQueue >= 0) || (Number.isFinite(this.maxQueue) && !Number.isInteger(this.maxQueue))) {
      throw new RangeError(`maxQueue must be a non-negative integer, got ${options.maxQueue}`);
    }
    if (!(this.maxWaitMs >= 0)) throw new RangeError(`maxWaitMs must be a non-negative number, got ${options.maxWaitMs}`);
    this.now = options.now ?? (() => performance.now());
  }

  get stats(): SemaphoreStats {
    const { active, queued, peakActive, started, refused, abandoned } = this;
    return { active, queued, peakActive, started, refused, abandoned };
  }

  /**
   * Runs `task` once a permit is free. The permit is taken synchronously when one is free, so the
   * counters are exact right after the call returns. Rejects with SemaphoreRefusedError, without
   * running `task`, when the queue is full, the wait exceeds `maxWaitMs` or `signal` fires first.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignalLike): Promise<T> {
    if (aborted(signal)) {
      this.abandoned += 1;
      throw new SemaphoreRefusedError('aborted');
    }
    if (this.active < this.permits) {
      this.take();
    } else {
      await this.wait(signal);
      // Granted, but the caller may have given up while the grant travelled as a microtask.
      if (aborted(signal)) {
        this.abandoned += 1;
        this.release();
        throw new SemaphoreRefusedError('aborted');
      }
    }
    this.started += 1;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private wait(signal: AbortSignalLike | undefined): Promise<void> {
    if (this.queued >= this.maxQueue || this.maxWaitMs === 0) {
      this.refused += 1;
      return Promise.reject(new SemaphoreRefusedError('full'));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.unlink(waiter);
        this.abandoned += 1;
        reject(new SemaphoreRefusedError('aborted'));
      };
      const waiter: Waiter = {
        due: this.now() + this.maxWaitMs,
        // The releasing task hands its permit over directly, so `active` never dips and no newcomer
        // can overtake a waiter.
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        refuse: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(new SemaphoreRefusedError(reason));
        },
        prev: this.tail,
        next: undefined,
      };
      if (this.tail === undefined) this.head = waiter;
      else this.tail.next = waiter;
      this.tail = waiter;
      this.queued += 1;
      signal?.addEventListener('abort', onAbort);
      if (this.timer === undefined && Number.isFinite(this.maxWaitMs)) this.arm(this.maxWaitMs);
    });
  }

  private take(): void {
    this.active += 1;
    if (this.active > this.peakActive) this.peakActive = this.active;
  }

  private release(): void {
    const next = this.head;
    if (next === undefined) {
      this.active -= 1;
      return;
    }
    this.unlink(next);
    next.grant();
  }

  /** Every waiter has the same allowance, so the head is always the first due: one timer for it. */
  private arm(ms: number): void {
    this.timer = setTimeout(this.expire, Math.max(1, Math.ceil(ms)));
    // A queue of refused-to-be logins must not keep a closing process alive.
    this.timer.unref?.();
  }

  private readonly expire = (): void => {
    this.timer = undefined;
    const now = this.now();
    while (this.head !== undefined && this.head.due <= now) {
      const waiter = this.head;
      this.unlink(waiter);
      this.refused += 1;
      waiter.refuse('timeout');
    }
    if (this.head !== undefined) this.arm(this.head.due - now);
  };

  private unlink(waiter: Waiter): void {
    if (waiter.prev === undefined) this.head = waiter.next;
    else waiter.prev.next = waiter.next;
    if (waiter.next === undefined) this.tail = waiter.prev;
    else waiter.next.prev = waiter.prev;
    waiter.prev = undefined;
    waiter.next = undefined;
    this.queued -= 1;
  }
}

/** A function, not an inline test: TypeScript would otherwise assume `aborted` cannot change across an await. */
function aborted(signal: AbortSignalLike | undefined): boolean {
  return signal?.aborted === true;
}
