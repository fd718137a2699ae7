/**
 * Where the process logger writes: stdout through sonic-boom, pino's own asynchronous writer, with
 * lines encoded into a buffer and handed over together (at 16 KiB pending or 50 ms after the first
 * line, at once on `flush` and at exit), because a hand-over per line cost more than the line
 * (docs/performance.md). The price: a line reaches stdout up to 50 ms later, and SIGKILL loses at
 * most that much; a normal exit, `process.exit` included, writes everything.
 */
import { writeSync } from 'node:fs';
import { pino } from 'pino';

/** The part of sonic-boom (in `contentMode: 'buffer'`) used here. */
interface Target {
  write(chunk: Buffer): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

let stdout: BatchedDestination | undefined;

/** Pending lines are handed over when they fill this many bytes... */
export const HANDOVER_BYTES = 16 * 1024;
/** ...or this long after the first of them was written. */
export const HANDOVER_DELAY_MS = 50;
/** Lines are encoded into the buffer this many at a time (they stay young for the collector). */
const ENCODE_GROUP = 32;

export class BatchedDestination {
  /** Lines not yet encoded: encoded together, a group at a time (one call into C++ per group). */
  private lines: string[] = [];
  private pendingChars = 0;
  private staging = Buffer.allocUnsafe(HANDOVER_BYTES);
  private used = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param target sonic-boom in buffer mode (or the like)
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
      const rest = this.lines.join('');
      this.lines = [];
      this.pendingChars = 0;
      writeAllSync(fd, Buffer.concat([this.staging.subarray(0, this.used), Buffer.from(rest)]));
      this.used = 0;
    });
  }

  /** stdout, as pino's default destination; one per process, shared by every logger writing there. */
  static stdout(): BatchedDestination {
    stdout ??= new BatchedDestination(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as Target, 1);
    return stdout;
  }

  write(line: string): void {
    this.lines.push(line);
    this.pendingChars += line.length;
    // A group, or enough to fill the buffer (16 KiB pending are handed over at once).
    if (this.lines.length >= ENCODE_GROUP || this.pendingChars >= this.staging.length - this.used) this.encode();
    if (this.timer === undefined) {
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

  /** Encodes the pending lines into the buffer, handing it over whenever it fills. */
  private encode(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.pendingChars = 0;
    const room = this.staging.length - this.used;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only text that may not fit is measured.
    if (text.length * 3 > room) {
      const bytes = Buffer.byteLength(text);
      if (bytes > room) {
        this.handOverBuffer();
        // Larger than the whole buffer (long stack traces): handed over on its own.
        if (bytes > this.staging.length) {
          this.target.write(Buffer.from(text));
          return;
        }
      }
    }
    this.used += this.staging.write(text, this.used);
    if (this.used === this.staging.length) this.handOverBuffer();
  }

  private readonly handOver = (): void => {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.encode();
    this.handOverBuffer();
  };

  private handOverBuffer(): void {
    if (this.used === 0) return;
    // sonic-boom keeps the chunk until it is written: the next lines go into a new buffer.
    const chunk = this.staging.subarray(0, this.used);
    this.staging = Buffer.allocUnsafe(HANDOVER_BYTES);
    this.used = 0;
    this.target.write(chunk);
  }
}

/** Writes all of `bytes`, waiting out a full pipe (EAGAIN) for up to about a second. */
function writeAllSync(fd: number, bytes: Buffer): void {
  let rest = bytes;
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
