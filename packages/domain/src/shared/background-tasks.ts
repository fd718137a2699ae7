import { setTimer } from './timers.js';

/**
 * Work that a request starts but must not wait for (a password reset's lookup, token and email):
 * run at once, never on the answer's path, bounded in number, every failure reported.
 */
export interface BackgroundTaskOptions {
  /** Tasks running at once; beyond this a new one is refused (reported, not run). Default 1,000. */
  readonly maxPending?: number;
  /**
   * Told of every task that failed or was refused, with what it was. Default: `console.error`
   * where there is a console. The app logs it.
   */
  readonly onError?: (error: unknown, task: string) => void;
}

export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();
  private readonly maxPending: number;
  private readonly onError: (error: unknown, task: string) => void;

  constructor(options: BackgroundTaskOptions = {}) {
    this.maxPending = options.maxPending ?? 1000;
    this.onError = options.onError ?? reportToConsole;
  }

  /** Starts `work` unless `maxPending` tasks are running; returns whether it was started. */
  run(task: string, work: () => Promise<void>): boolean {
    if (this.pending.size >= this.maxPending) {
      this.report(new Error(`${this.maxPending} background tasks are already running: "${task}" was not started`), task);
      return false;
    }
    // Started from a timer, not a microtask: whatever the task does synchronously (a memory store's
    // look-up, say) happens after the request's answer is written, never before it.
    const running: Promise<void> = new Promise<void>((resolve) => setTimer(resolve, 0))
      .then(work)
      .catch((error: unknown) => this.report(error, task))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
    return true;
  }

  /** Tasks not finished yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Resolves once every task running now (and any they start) has finished. Never rejects. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Tells `onError` of a failure a task met and went on from (one item of a batch, say). Never throws. */
  report(error: unknown, task: string): void {
    try {
      this.onError(error, task);
    } catch {
      // A failing reporter must not turn into an unhandled rejection.
    }
  }
}

function reportToConsole(error: unknown, task: string): void {
  const console = (globalThis as { console?: { error(...values: unknown[]): void } }).console;
  console?.error(`storefront: background task "${task}" failed:`, error);
}
