/**
 * When to sweep a map of expiring entries (sessions, reset tokens, idempotency records, limiter
 * callers): a sweep visits every entry, so it waits for as many writes as the last sweep left
 * entries, and at least `minInterval`. That keeps its cost O(1) per write, and memory at the live
 * entries plus at most as many expired ones again.
 */
export class SweepSchedule {
  private writesSinceSweep = 0;
  private sizeAfterSweep = 0;

  constructor(private readonly minInterval: number) {}

  /** Counts one write; true when a sweep is due. */
  wrote(): boolean {
    this.writesSinceSweep += 1;
    return this.writesSinceSweep >= Math.max(this.minInterval, this.sizeAfterSweep);
  }

  /** A sweep ran and left `size` entries. */
  swept(size: number): void {
    this.writesSinceSweep = 0;
    this.sizeAfterSweep = size;
  }
}
