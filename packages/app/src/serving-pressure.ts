/**
 * Whether this instance is busy serving requests: its event loop was at least UTILIZATION busy over
 * the last SAMPLE_MS and it answered at least MIN_REQUESTS requests meanwhile. Background work that
 * can wait (webhook deliveries) slows down while it is, so that it never takes the CPU placements
 * need; the requests condition keeps a loop busy with that background work alone from throttling it.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

const SAMPLE_MS = 100;
const UTILIZATION = 0.7;
const MIN_REQUESTS = 5;

export class ServingPressure {
  private answered = 0;
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private busyNow = false;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** A request was answered. */
  readonly noteRequest = (): void => {
    this.answered += 1;
  };

  /** How often `busy` is told anew: background work that gives way pauses this long at a time. */
  readonly sampleMs = SAMPLE_MS;

  /** Busy over the last sample. */
  readonly busy = (): boolean => this.busyNow;

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    this.busyNow = utilization >= UTILIZATION && this.answered >= MIN_REQUESTS;
    this.answered = 0;
  }
}
