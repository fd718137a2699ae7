/**
 * Where the process logger writes: stdout through sonic-boom, pino's own writer (asynchronous,
 * flushed on exit, as pino does by default), with lines gathered here and handed over together:
 * once 16 KiB are pending, or 50 ms after the first pending line, whichever comes first; at once on
 * `flush` and at exit.
 *
 * Why: with an access-log line per request, each hand-over costs more than the line. sonic-boom
 * measures the byte length of its whole pending buffer on every write (`Buffer.byteLength(bufs[last])`)
 * and every write it makes goes through libuv's thread pool and back. Handing lines over per turn of
 * the event loop still meant a write every request or two at 50,000 requests a second; gathering
 * them cut about 1.3 µs of CPU per request (docs/performance.md). The price: a line reaches stdout
 * up to 50 ms later, and a process killed with SIGKILL loses at most that much (pino's asynchronous
 * mode has the same caveat); a normal exit, `process.exit` included, writes everything.
 */
import { writeSync } from 'node:fs';
import { pino } from 'pino';

/** The part of sonic-boom used here. */
interface Target {
  write(chunk: string): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

let stdout: BatchedDestination | undefined;

/** Pending lines are handed over when they reach this many characters... */
export const HANDOVER_CHARS = 16 * 1024;
/** ...or this long after the first of them was written. */
export const HANDOVER_DELAY_MS = 50;

export class BatchedDestination {
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param target sonic-boom (or the like)
   * @param fd the file descriptor it writes to: at exit, the pending lines are written there directly
   */
  constructor(
    private readonly target: Target,
    fd: number,
  ) {
    // At exit nothing asynchronous runs any more: what sonic-boom holds is written synchronously,
    // then the lines still pending here (handing them to sonic-boom would start an asynchronous
    // write that the exit would cut off).
    process.once('exit', () => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      target.flushSync();
      if (this.pending.length > 0) writeAllSync(fd, this.pending.join(''));
      this.pending = [];
    });
  }

  /** stdout, as pino's default destination; one per process, shared by every logger writing there. */
  static stdout(): BatchedDestination {
    return (stdout ??= new BatchedDestination(pino.destination({ dest: 1, sync: false }) as unknown as Target, 1));
  }

  write(line: string): void {
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= HANDOVER_CHARS) {
      this.handOver();
    } else if (this.timer === undefined) {
      // Unreferenced: pending lines do not keep the process alive; the exit hook writes them.
      this.timer = setTimeout(this.handOver, HANDOVER_DELAY_MS);
      this.timer.unref();
    }
  }

  /** pino's `logger.flush(callback)`: everything written so far reaches the file descriptor. */
  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    this.target.flush(callback);
  }

  private readonly handOver = (): void => {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.target.write(chunk);
  };
}

/** Writes all of `text`, waiting out a full pipe (EAGAIN) for up to about a second. */
function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waits = 0; rest.length > 0 && waits < 1_000; ) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      waits++;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
