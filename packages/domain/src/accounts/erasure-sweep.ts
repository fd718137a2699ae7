/**
 * Finishing erasures a stopped process left behind (DECISIONS "Accounts", issue 32 item 3): an
 * erasure is marked in the account before its steps run, so a marked account is an erasure cut
 * short. The sweep reads them in bounded batches, oldest first, and runs their steps again; the
 * last deletes the record and the mark. Every step is repeatable, so concurrent sweeps, or a
 * sweep meeting a running request, need no lock.
 */
import type { PendingErasures } from './pending-erasures.js';
import { clearTimer, setTimer } from '../shared/timers.js';
import type { BackgroundTasks } from '../shared/background-tasks.js';

export interface ErasureSweepOptions {
  /** How often marked accounts are looked for, after the sweep at start. Default 60,000 ms. */
  readonly intervalMs?: number;
  /** Accounts read per batch. Default 100. */
  readonly batchSize?: number;
}

/** Batches of one sweep at most: an account whose steps keep failing ends the sweep, and this bounds the rest. */
const MAX_BATCHES_PER_SWEEP = 10;
const TASK = 'finish pending account erasures';

export class ErasureSweep {
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private timer: unknown = null;
  private started = false;
  private stopped = false;
  private running: Promise<number> | null = null;

  constructor(
    private readonly erasures: PendingErasures,
    private readonly finish: (customerId: string) => Promise<void>,
    /** Where each sweep runs: a failure is reported there, and a shutdown that settles it waits for the sweep. */
    private readonly background: BackgroundTasks,
    options: ErasureSweepOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.batchSize = options.batchSize ?? 100;
  }

  /** Sweeps now, then every `intervalMs` until `stop()`. Does nothing once stopped. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tick();
  }

  /** No sweep starts after this; one running goes on as a background task (settle those before closing the adapters). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimer(this.timer);
    this.timer = null;
  }

  /**
   * Finishes the marked accounts, oldest first, a batch at a time; resolves with how many were
   * finished. The first failure ends the sweep (rejects): the next one tries again. A call while a
   * sweep runs joins it.
   */
  sweep(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private tick(): void {
    this.background.run(TASK, async () => {
      await this.sweep();
    });
    if (this.stopped) return;
    this.timer = setTimer(() => {
      this.timer = null;
      if (!this.stopped) this.tick();
    }, this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async run(): Promise<number> {
    let finished = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
      const pending = await this.erasures.list(this.batchSize);
      for (const customerId of pending) {
        await this.finish(customerId);
        finished += 1;
      }
      if (pending.length < this.batchSize) break;
    }
    return finished;
  }
}
