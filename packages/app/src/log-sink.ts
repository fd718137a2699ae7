/**
 * Where the process logger writes: stdout through sonic-boom, pino's own writer (asynchronous,
 * flushed on exit, as pino does by default), with the lines of one turn of the event loop handed
 * to it as one string.
 *
 * Why: sonic-boom measures the byte length of its whole pending buffer on every write
 * (`Buffer.byteLength(bufs[last])`), so while one of its writes is in flight every further line costs
 * in proportion to the lines before it. With an access-log line per request at tens of thousands of
 * requests a second, that was the largest single cost of logging (docs/performance.md). Handed over
 * once per turn, it is paid once per turn.
 */
import { pino } from 'pino';

/** The part of sonic-boom used here. */
interface Target {
  write(chunk: string): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

let stdout: BatchedDestination | undefined;

export class BatchedDestination {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly target: Target) {
    // At exit nothing asynchronous runs any more: hand over what is pending and write it now.
    process.once('exit', () => {
      this.handOver();
      target.flushSync();
    });
  }

  /** stdout, as pino's default destination; one per process, shared by every logger writing there. */
  static stdout(): BatchedDestination {
    return (stdout ??= new BatchedDestination(pino.destination({ dest: 1, sync: false }) as unknown as Target));
  }

  write(line: string): void {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.handOver);
    }
  }

  /** pino's `logger.flush(callback)`: everything written so far reaches the file descriptor. */
  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    this.target.flush(callback);
  }

  private readonly handOver = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.target.write(chunk);
  };
}
