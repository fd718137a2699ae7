/**
 * The one loop per log instance that follows the stream for live delivery: `XREAD BLOCK` on a
 * connection of its own (a blocked read would hold up every command behind it on a shared one). Ids
 * are dense, so a missed entry or a head below `lastSeen` after a reconnection is reported as a
 * gap. It never throws: while Redis is unreachable it retries (backing off to 1 s) from the last id
 * seen, reporting the outage once and the recovery once.
 */
import type { OrderEvent } from '@storefront/domain';
import { systemTimers, type Timer, type Timers } from '@storefront/domain/adapter-kit';
import type { Redis } from 'ioredis';
import { decodeEntry, seqOf } from './order-event-codec.js';

export interface OrderEventReaderOptions {
  /** The reader's own connection: it disconnects it on close. */
  readonly connection: Redis;
  readonly streamKey: string;
  readonly blockMs: number;
  readonly count: number;
  /** The back-off's timers. Default the runtime's. */
  readonly timers?: Timers | undefined;
  /** The id to read after at the start. */
  start(): Promise<number>;
  /** After a (re)connection: raises the head to at least `lastSeen`; the head Redis held before that, and after. */
  reconnected(lastSeen: number): Promise<{ readonly held: number; readonly head: number }>;
  event(event: OrderEvent): void;
  gap(): void;
  onError?: ((error: unknown) => void) | undefined;
  onRestored?: (() => void) | undefined;
}

const FIRST_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 1000;

export class OrderEventReader {
  private lastSeen: number | null = null;
  private running = true;
  private failing = false;
  /** Set on every (re)connection and failure: the head is checked before the next read. */
  private checkHead = true;
  private stop: () => void = () => undefined;
  private readonly stopped = new Promise<void>((resolve) => {
    this.stop = resolve;
  });
  private readonly done: Promise<void>;

  constructor(private readonly options: OrderEventReaderOptions) {
    // Connection errors reach the loop as rejected commands; without a listener ioredis would print them.
    options.connection.on('error', () => undefined);
    options.connection.on('ready', () => {
      this.checkHead = true;
    });
    this.done = this.loop();
  }

  /** Stops the loop and disconnects the reader's connection. */
  async close(): Promise<void> {
    this.running = false;
    this.stop();
    this.options.connection.disconnect();
    await this.done;
  }

  private async loop(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    while (this.running) {
      try {
        await this.step();
        backoff = FIRST_BACKOFF_MS;
      } catch (error) {
        if (!this.running) break;
        this.checkHead = true;
        if (!this.failing) {
          this.failing = true;
          safely(() => this.options.onError?.(error));
        }
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async step(): Promise<void> {
    this.lastSeen ??= await this.options.start();
    await this.ready();
    if (this.checkHead) {
      this.checkHead = false;
      const { held, head } = await this.options.reconnected(this.lastSeen);
      this.restored();
      if (held < this.lastSeen) {
        // Redis lost events (a restart without persistence): what this reader had not read is gone.
        this.lastSeen = head;
        this.gap();
      }
    }
    const { connection, count, blockMs, streamKey } = this.options;
    const reply = await connection.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', streamKey, `${this.lastSeen}-0`);
    this.restored();
    for (const [, entries] of reply ?? []) {
      for (const [streamId, fields] of entries) {
        if (!this.running) return;
        const seq = seqOf(streamId);
        if (seq !== this.lastSeen + 1) this.gap();
        this.lastSeen = seq;
        let event: OrderEvent;
        try {
          event = decodeEntry(streamId, fields);
        } catch {
          // Not an event this log wrote: skipped, and listeners told they missed one.
          this.gap();
          continue;
        }
        safely(() => this.options.event(event));
      }
    }
  }

  private gap(): void {
    safely(() => this.options.gap());
  }

  private restored(): void {
    if (!this.failing) return;
    this.failing = false;
    safely(() => this.options.onRestored?.());
  }

  /** Waits (at most a back-off) for the connection to be ready; throws if it is not. */
  private async ready(): Promise<void> {
    const { connection } = this.options;
    if (connection.status === 'ready') return;
    let onReady: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => {
      onReady = resolve;
      connection.once('ready', onReady);
    });
    try {
      await Promise.race([isReady, this.pause(MAX_BACKOFF_MS)]);
    } finally {
      connection.off('ready', onReady);
    }
    // Read again: TypeScript narrowed it above, but the event may have changed it since.
    const status: string = connection.status;
    if (status !== 'ready') throw new Error(`the order event reader's Redis connection is ${status}`);
  }

  /** Sleeps `ms`, or less when the reader is closed. */
  private async pause(ms: number): Promise<void> {
    const timers = this.options.timers ?? systemTimers;
    let timer: Timer | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, ms))), this.stopped]);
    timers.clearTimeout(timer);
  }
}

/** A callback's failure is the caller's business (a closed stream): it must not stop the loop or the other listeners. */
export function safely(callback: () => void): void {
  try {
    callback();
  } catch {
    // Ignored on purpose: see above.
  }
}
