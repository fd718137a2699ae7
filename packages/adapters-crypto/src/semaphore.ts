/**
 * A counting semaphore: at most `permits` tasks run at once, the rest wait in FIFO order. Used to
 * bound concurrent scrypt work, whose memory cost (128 · N · r bytes each) would otherwise grow
 * with the number of simultaneous logins.
 */
export interface SemaphoreStats {
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a permit. */
  readonly queued: number;
  /** The most tasks ever seen running at once. */
  readonly peakActive: number;
}

export class Semaphore {
  private active = 0;
  private peakActive = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly permits: number) {
    if (!Number.isInteger(permits) || permits < 1) {
      throw new RangeError(`permits must be a positive integer, got ${permits}`);
    }
  }

  get stats(): SemaphoreStats {
    return { active: this.active, queued: this.waiters.length, peakActive: this.peakActive };
  }

  /**
   * Runs `task` once a permit is free. The permit is taken synchronously when one is free, so the
   * counters are exact right after the call returns.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.permits) {
      this.take();
    } else {
      // The releasing task hands its permit over directly, so `active` never dips and no newcomer
      // can overtake a waiter.
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private take(): void {
    this.active += 1;
    if (this.active > this.peakActive) this.peakActive = this.active;
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next === undefined) this.active -= 1;
    else next();
  }
}
