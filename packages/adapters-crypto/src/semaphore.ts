/**
 * A counting semaphore with a bounded, fair wait: at most `permits` tasks run, at most `maxQueue`
 * wait, each until `maxWaitMs` or its `signal`. Callers' keys take turns (waiting-lanes.ts); one
 * key's tasks run in arrival order. It bounds concurrent scrypt work, whose memory grows with
 * simultaneous logins, and answers a login that cannot be served soon at once, not after the
 * request time-out when nobody reads the answer.
 */
import type { AbortSignalLike } from '@storefront/domain/adapter-kit';
import { WaitingLanes, type Waiter } from './waiting-lanes.js';

export interface SemaphoreStats {
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a permit. */
  readonly queued: number;
  /** The most tasks ever seen running at once. */
  readonly peakActive: number;
  /** Tasks started since creation. */
  readonly started: number;
  /**
   * Tasks refused because the queue was full (or whose place went to a client with fewer waiting),
   * or dropped because they waited `maxWaitMs`.
   */
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

export class Semaphore {
  readonly maxQueue: number;
  readonly maxWaitMs: number;
  private active = 0;
  private peakActive = 0;
  private started = 0;
  private refused = 0;
  private abandoned = 0;
  private readonly waiting = new WaitingLanes();
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
    const { active, peakActive, started, refused, abandoned } = this;
    return { active, queued: this.waiting.size, peakActive, started, refused, abandoned };
  }

  /**
   * Runs `task` once a permit is free. The permit is taken synchronously when one is free, so the
   * counters are exact right after the call returns. Rejects with SemaphoreRefusedError, without
   * running `task`, when the queue is full, the wait exceeds `maxWaitMs` or `signal` fires first.
   * `key` says whose task it is (a client address): waiting is fair between keys.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignalLike, key = ''): Promise<T> {
    if (aborted(signal)) {
      this.abandoned += 1;
      throw new SemaphoreRefusedError('aborted');
    }
    if (this.active < this.permits) {
      this.take();
    } else {
      await this.wait(signal, key);
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

  private wait(signal: AbortSignalLike | undefined, key: string): Promise<void> {
    if (!this.makeRoomFor(key)) {
      this.refused += 1;
      return Promise.reject(new SemaphoreRefusedError('full'));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.remove(waiter);
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
        lane: undefined,
        prev: undefined,
        next: undefined,
        prevInLane: undefined,
        nextInLane: undefined,
      };
      this.waiting.add(key, waiter);
      signal?.addEventListener('abort', onAbort);
      if (this.timer === undefined && Number.isFinite(this.maxWaitMs)) this.arm(this.maxWaitMs);
    });
  }

  /**
   * True when `key` may wait: a place is free, or the longest lane has at least two more waiters
   * than `key` and gives up its newest (refused as if the queue had been full when it came).
   */
  private makeRoomFor(key: string): boolean {
    if (this.maxWaitMs === 0 || this.maxQueue === 0) return false;
    if (this.waiting.size < this.maxQueue) return true;
    const longest = this.waiting.longest();
    const evicted = longest?.tail;
    if (longest === undefined || evicted === undefined || longest.size < this.waiting.sizeOf(key) + 2) return false;
    this.waiting.remove(evicted);
    this.refused += 1;
    evicted.refuse('full');
    return true;
  }

  private take(): void {
    this.active += 1;
    if (this.active > this.peakActive) this.peakActive = this.active;
  }

  private release(): void {
    const next = this.waiting.takeTurn();
    if (next === undefined) this.active -= 1;
    else next.grant();
  }

  /** Every waiter has the same allowance, so the oldest is always the first due: one timer for it. */
  private arm(ms: number): void {
    this.timer = setTimeout(this.expire, Math.max(1, Math.ceil(ms)));
    // A queue of refused-to-be logins must not keep a closing process alive.
    this.timer.unref?.();
  }

  private readonly expire = (): void => {
    this.timer = undefined;
    const now = this.now();
    for (let waiter = this.waiting.oldest; waiter !== undefined && waiter.due <= now; waiter = this.waiting.oldest) {
      this.waiting.remove(waiter);
      this.refused += 1;
      waiter.refuse('timeout');
    }
    const oldest = this.waiting.oldest;
    if (oldest !== undefined) this.arm(oldest.due - now);
  };
}

/** A function, not an inline test: TypeScript would otherwise assume `aborted` cannot change across an await. */
function aborted(signal: AbortSignalLike | undefined): boolean {
  return signal?.aborted === true;
}
