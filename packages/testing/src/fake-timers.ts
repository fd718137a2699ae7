/**
 * Timers that fire only when the test moves their clock: a FakeClock that is also the Timers port
 * (domain adapter-kit), for components whose timing matters (the live streams' ticker, a stream's
 * deadline, a reader's back-off). Timers due within a move fire in the order of their due time,
 * each with the clock set to it; an interval is due again a period later.
 */
import type { Timer, Timers } from '@storefront/domain/adapter-kit';
import { FakeClock } from './fake-clock.js';

interface Scheduled {
  readonly id: number;
  due: number;
  readonly periodMs: number | null;
  readonly callback: () => void;
}

class FakeTimer implements Timer {
  constructor(readonly id: number) {}
  unref(): this {
    return this;
  }
}

export class FakeTimers extends FakeClock implements Timers {
  private readonly scheduled = new Map<number, Scheduled>();
  private nextId = 1;
  /** Every delay asked for, in order (a back-off shows here). */
  readonly delays: number[] = [];

  /** Timers waiting to fire. */
  get pending(): number {
    return this.scheduled.size;
  }

  setTimeout(callback: () => void, ms: number): Timer {
    return this.schedule(callback, ms, null);
  }

  setInterval(callback: () => void, ms: number): Timer {
    return this.schedule(callback, ms, Math.max(1, ms));
  }

  clearTimeout(timer: Timer | undefined): void {
    if (timer instanceof FakeTimer) this.scheduled.delete(timer.id);
  }

  clearInterval(timer: Timer | undefined): void {
    this.clearTimeout(timer);
  }

  /** Moves the clock by `ms`, firing every timer that falls due on the way. */
  override advance(ms: number): void {
    const end = this.now().getTime() + ms;
    for (let next = this.nextDue(end); next !== undefined; next = this.nextDue(end)) {
      super.advance(next.due - this.now().getTime());
      this.fire(next);
    }
    super.advance(end - this.now().getTime());
  }

  /**
   * As `advance`, but lets the event loop run after each timer fired (promises it started settle,
   * sockets are written), as real time would.
   */
  async run(ms: number): Promise<void> {
    const end = this.now().getTime() + ms;
    for (let next = this.nextDue(end); next !== undefined; next = this.nextDue(end)) {
      super.advance(next.due - this.now().getTime());
      this.fire(next);
      await new Promise((resolve) => setImmediate(resolve));
    }
    super.advance(end - this.now().getTime());
    await new Promise((resolve) => setImmediate(resolve));
  }

  private schedule(callback: () => void, ms: number, periodMs: number | null): Timer {
    const delay = Math.max(0, Number.isFinite(ms) ? ms : 0);
    this.delays.push(delay);
    const timer = new FakeTimer(this.nextId++);
    this.scheduled.set(timer.id, { id: timer.id, due: this.now().getTime() + delay, periodMs, callback });
    return timer;
  }

  /** The earliest timer due by `end` (the first scheduled among equals). */
  private nextDue(end: number): Scheduled | undefined {
    let next: Scheduled | undefined;
    for (const entry of this.scheduled.values()) {
      if (entry.due <= end && (next === undefined || entry.due < next.due)) next = entry;
    }
    return next;
  }

  private fire(entry: Scheduled): void {
    if (entry.periodMs === null) this.scheduled.delete(entry.id);
    else entry.due += entry.periodMs;
    entry.callback();
  }
}
