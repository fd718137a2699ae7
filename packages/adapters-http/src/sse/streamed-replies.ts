/**
 * Streamed replies (Server-Sent Events): headers at once, then each chunk handed to the socket as
 * it comes. Outside the request time-out; ends when its source ends it, the client goes, its own
 * deadline passes (e.g. token expiry), the server shuts down, or its client reads too slowly:
 * unread data is bounded (`maxBufferedBytes`), so one stalled reader cannot pin every event.
 */
import type { ServerResponse } from 'node:http';
import { systemTimers, type Timer, type Timers } from '@storefront/domain/adapter-kit';
import { STREAM_LIMITS } from '../limits.js';

/** The longest time-out Node's timers take. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Why a stream ended. */
export type StreamEnd = 'done' | 'client_closed' | 'deadline' | 'shutdown' | 'slow_client';

/** The writing end handed to a stream's source. */
export interface StreamSink {
  /** Writes a chunk now (text as UTF-8); false (and nothing written) once the stream has ended. */
  write(chunk: string | Buffer): boolean;
  /** Ends the stream (reason `done`). */
  end(): void;
  readonly ended: boolean;
  /** Called once when the stream ends, whatever the reason: release what the source holds here. */
  onEnd(listener: (reason: StreamEnd) => void): void;
}

/** What a handler returns to stream: it is given the sink once the headers are sent. */
export interface StreamSource {
  /** The stream is ended this long after it opened. Default: no deadline of its own. */
  readonly maxDurationMs?: number;
  open(sink: StreamSink): void;
  /**
   * Called instead of `open` when the reply is never streamed (the time allowance answered first,
   * the headers could not be written, the client left before them, a HEAD): release what the
   * handler took for the stream.
   */
  cancel?(): void;
}

/** The streams open on one app, so that a shutdown can end them instead of waiting for them. */
export class OpenStreams {
  private readonly open = new Set<ResponseSink>();

  /** `maxBufferedBytes`: what one stream may leave unsent before it is cut (default STREAM_LIMITS). */
  constructor(
    private readonly maxBufferedBytes: number = STREAM_LIMITS.maxBufferedBytes,
    /** Each stream's deadline runs on these (tests: a fake that moves with its clock). */
    private readonly timers: Timers = systemTimers,
  ) {
    if (!(maxBufferedBytes > 0)) throw new RangeError(`maxBufferedBytes must be above 0, got ${maxBufferedBytes}`);
  }

  get size(): number {
    return this.open.size;
  }

  /** Starts streaming `source` on `res`, whose headers are already written; `ended` is told once. */
  start(res: ServerResponse, source: StreamSource, ended: (reason: StreamEnd) => void): void {
    // Gone before the headers: its `close` has fired already and would never end the sink.
    if (res.destroyed) {
      source.cancel?.();
      ended('client_closed');
      return;
    }
    const sink = new ResponseSink(res, this.maxBufferedBytes, this.timers, (reason) => {
      this.open.delete(sink);
      ended(reason);
    });
    this.open.add(sink);
    if (source.maxDurationMs !== undefined) sink.endAfter(source.maxDurationMs);
    try {
      source.open(sink);
      sink.opened();
    } catch (error) {
      sink.finish('done');
      throw error;
    }
  }

  /** Ends every open stream (reason `shutdown`). */
  endAll(): void {
    for (const sink of [...this.open]) sink.finish('shutdown');
  }
}

class ResponseSink implements StreamSink {
  private done = false;
  /**
   * What may stay unsent before the stream is cut. While the source opens, no bound: what it writes
   * then (a replay after Last-Event-ID, which may be megabytes) is what the client asked for, and
   * it cannot have read any of it yet. From then on, that burst plus `maxBufferedBytes`.
   */
  private limit = Number.POSITIVE_INFINITY;
  private timer: Timer | undefined;
  private readonly listeners: ((reason: StreamEnd) => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBufferedBytes: number,
    private readonly timers: Timers,
    private readonly onEnded: (reason: StreamEnd) => void,
  ) {
    res.once('close', () => this.finish('client_closed'));
  }

  get ended(): boolean {
    return this.done;
  }

  write(chunk: string | Buffer): boolean {
    if (this.done) return false;
    // `write` returning false says the socket is behind; how far is `writableLength` (the bytes
    // Node holds for it). Cut past the bound: the client resumes after the last whole event it read.
    if (!this.res.write(chunk) && this.res.writableLength > this.limit) this.finish('slow_client');
    return true;
  }

  /** The source has opened: from now on the backlog may grow by at most `maxBufferedBytes`. */
  opened(): void {
    this.limit = this.res.writableLength + this.maxBufferedBytes;
  }

  end(): void {
    this.finish('done');
  }

  onEnd(listener: (reason: StreamEnd) => void): void {
    if (this.done) listener('done');
    else this.listeners.push(listener);
  }

  endAfter(ms: number): void {
    // Node fires a longer time-out at once (it overflows a 32-bit int): such a deadline is never.
    if (ms > MAX_TIMEOUT_MS) return;
    this.timer = this.timers.setTimeout(() => this.finish('deadline'), ms);
    this.timer.unref?.();
  }

  finish(reason: StreamEnd): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    // A slow client's backlog is dropped with its connection (an `end` would keep it queued behind
    // the data it is not reading); an event cut in half is never dispatched by an SSE client.
    if (reason === 'slow_client') this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
    this.onEnded(reason);
    for (const listener of this.listeners) listener(reason);
  }
}
