/**
 * The order event log on a Redis Stream shared by every instance: appends, replays and positions
 * are one Lua script each (order-event-log-scripts.ts), live delivery one reader loop per instance
 * on its own connection (order-event-reader.ts). A Redis restarted without persistence would give
 * ids again that clients hold: every append carries a floor (the highest id this instance has
 * seen), and a reader that reconnects to a lower head raises it the same way; what was lost shows
 * as a gap or a `reset` (docs/decisions.md, "Live order updates").
 */
import type { Clock, OrderEvent, OrderEventLog } from '@storefront/domain';
import type { EventReplay, LogPosition, OrderEventData, OrderEventListener, Timers } from '@storefront/domain/adapter-kit';
import { isEventId, withoutDeliveryAddress } from '@storefront/domain/adapter-kit';
import type { Redis } from 'ioredis';
import { decodeEntry, encodeEvent } from './order-event-codec.js';
import { APPEND_EVENTS_LUA, EVENTS_POSITION_LUA, READ_EVENTS_LUA, REWRITE_EVENTS_LUA } from './order-event-log-scripts.js';
import { OrderEventReader, safely } from './order-event-reader.js';

type Entries = [streamId: string, fields: string[]][];

interface EventLogCommands {
  storefrontEventsAppend(numberOfKeys: number, ...args: (string | number)[]): Promise<[number, number, number]>;
  storefrontEventsRead(headKey: string, streamKey: string, after: string, limit: number): Promise<[0, number] | [1, number, Entries]>;
  storefrontEventsPosition(numberOfKeys: number, ...args: string[]): Promise<[number, number]>;
  storefrontEventsRewrite(streamKey: string, copyKey: string, ...replacements: string[]): Promise<number>;
}

type EventLogRedis = Redis & EventLogCommands;

export interface RedisOrderEventLogOptions {
  /** The caller's client (fail-fast, see redis-client.ts): never closed here. */
  readonly client: Redis;
  /** Prefix of every key of the log. Default `storefront:events:`. */
  readonly keyPrefix?: string | undefined;
  /** Append times, for the window. Default: Redis TIME. */
  readonly clock?: Clock | undefined;
  /** Fewest events kept, however old. Default 10,000. */
  readonly keepAtLeast?: number | undefined;
  /** Events younger than this are kept, however many. Default one hour. */
  readonly keepForMs?: number | undefined;
  /** How long one read of the live loop waits for new events. Default 2,000 ms. */
  readonly blockMs?: number | undefined;
  /** The live loop's back-off between attempts while Redis is away. Default the runtime's (tests: a FakeTimers). */
  readonly timers?: Timers | undefined;
  /** The live loop lost Redis (told once per outage). */
  readonly onReaderError?: ((error: unknown) => void) | undefined;
  /** The live loop reads again. */
  readonly onReaderRestored?: (() => void) | undefined;
}

/** How long an order's record outlives its last write: long enough for any retried publish. */
const RECORD_TTL_MS = 24 * 3600_000;
/** Entries per live read, and most events per replay read (a larger limit is answered in pages). */
const READ_COUNT = 1000;

function defineCommands(client: Redis): EventLogRedis {
  const commands = client as Redis & Partial<EventLogCommands>;
  if (typeof commands.storefrontEventsAppend !== 'function') client.defineCommand('storefrontEventsAppend', { lua: APPEND_EVENTS_LUA });
  if (typeof commands.storefrontEventsRead !== 'function') client.defineCommand('storefrontEventsRead', { numberOfKeys: 2, lua: READ_EVENTS_LUA });
  if (typeof commands.storefrontEventsPosition !== 'function') client.defineCommand('storefrontEventsPosition', { lua: EVENTS_POSITION_LUA });
  if (typeof commands.storefrontEventsRewrite !== 'function') client.defineCommand('storefrontEventsRewrite', { numberOfKeys: 2, lua: REWRITE_EVENTS_LUA });
  return client as EventLogRedis;
}

export class RedisOrderEventLog implements OrderEventLog {
  private readonly redis: EventLogRedis;
  private readonly headKey: string;
  private readonly streamKey: string;
  private readonly prefix: string;
  private readonly keepAtLeast: number;
  private readonly keepForMs: number;
  /** How long one read of the live loop waits (the reader's connection allows a second more). */
  private readonly blockMs: number;
  /** The highest id this instance has seen: the floor of its appends. */
  private floor = 0;
  /**
   * While the reader is starting: the lowest head this instance observed since the subscription
   * began. The reader starts after no later id, so nothing a caller positioned itself on is skipped.
   */
  private startBound: number | null = null;
  private readonly listeners = new Set<OrderEventListener>();
  private reader: OrderEventReader | null = null;
  private closed = false;

  constructor(private readonly options: RedisOrderEventLogOptions) {
    this.redis = defineCommands(options.client);
    this.prefix = options.keyPrefix ?? 'storefront:events:';
    this.headKey = `${this.prefix}head`;
    this.streamKey = `${this.prefix}stream`;
    this.keepAtLeast = Math.max(1, options.keepAtLeast ?? 10_000);
    this.blockMs = options.blockMs ?? 2000;
    this.keepForMs = Math.max(0, options.keepForMs ?? 3600_000);
  }

  async append(events: readonly OrderEventData[]): Promise<void> {
    if (events.length === 0) return;
    const keys = [this.headKey, this.streamKey, ...events.map((event) => this.orderKey(event.orderId))];
    const values = events.flatMap((event) => [event.version, encodeEvent(event)]);
    const [, base, head] = await this.runAppend(this.redis, keys, this.floor, values);
    this.saw(base, head);
  }

  async position(orderId?: string): Promise<LogPosition> {
    const keys = orderId === undefined ? [this.headKey, this.streamKey] : [this.headKey, this.streamKey, this.orderKey(orderId)];
    const [head, orderVersion] = await this.redis.storefrontEventsPosition(keys.length, ...keys);
    this.saw(head, head);
    return { head: String(head), orderVersion };
  }

  async readAfter(after: string, limit: number): Promise<EventReplay> {
    if (!isEventId(after)) return { kind: 'reset' };
    const count = limit >= 1 ? Math.min(Math.floor(limit), READ_COUNT) : 1;
    const reply = await this.redis.storefrontEventsRead(this.headKey, this.streamKey, after, count);
    this.saw(reply[1], reply[1]);
    if (reply[0] === 0) return { kind: 'reset' };
    const events = reply[2].map(([streamId, fields]) => decodeEntry(streamId, fields));
    const last = events.length === 0 ? Number(after) : Number(events[events.length - 1]!.id);
    return { kind: 'events', events, more: last < reply[1] };
  }

  subscribe(listener: OrderEventListener): () => void {
    // A wrapper, so that one listener subscribed twice is two subscriptions.
    const entry: OrderEventListener = { event: (event) => listener.event(event), gap: () => listener.gap() };
    this.listeners.add(entry);
    if (this.reader === null && !this.closed) this.reader = this.startReader();
    return () => {
      this.listeners.delete(entry);
    };
  }

  /**
   * Finds the customer's events that carry an order (`order.placed`, `order.refunded`) still with
   * an address (read in pages), then rewrites the stream once with those entries replaced
   * (REWRITE_EVENTS_LUA). Erasures are rare; appends and replays stay as they are. Entries appended meanwhile are copied as they are: the erasure
   * stored the orders without their addresses before it came here, and the log's events derive
   * from stored orders.
   */
  async eraseDeliveryAddresses(customerId: string): Promise<void> {
    const replacements: string[] = [];
    for (let from = '-'; ; ) {
      const entries = await this.redis.xrange(this.streamKey, from, '+', 'COUNT', READ_COUNT);
      for (const [streamId, fields] of entries) {
        let event: OrderEvent;
        try {
          event = decodeEntry(streamId, fields);
        } catch {
          continue; // Not an event this log wrote (the reader skips it too).
        }
        if (event.customerId !== customerId || event.order === undefined) continue;
        const order = withoutDeliveryAddress(event.order);
        if (order !== event.order) replacements.push(streamId, encodeEvent({ ...event, order }));
      }
      if (entries.length < READ_COUNT) break;
      from = `(${entries[entries.length - 1]![0]}`;
    }
    if (replacements.length > 0) await this.redis.storefrontEventsRewrite(this.streamKey, `${this.prefix}rewrite`, ...replacements);
  }

  /** Stops live delivery and disconnects the reader's connection; the client stays open (it is the caller's). */
  async close(): Promise<void> {
    this.closed = true;
    await this.reader?.close();
  }

  private startReader(): OrderEventReader {
    this.startBound = Number.POSITIVE_INFINITY;
    // Sent now on the client appends go through, so that it runs before any append made after this call.
    let first: Promise<LogPosition> | null = this.position();
    first.catch(() => undefined);
    const connection = defineCommands(
      this.options.client.duplicate({
        // Fail fast like the client, but a blocked read must outlast its block.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: this.blockMs + 1000,
        autoResendUnfulfilledCommands: false,
        lazyConnect: false,
        retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      }),
    );
    return new OrderEventReader({
      connection,
      streamKey: this.streamKey,
      blockMs: this.blockMs,
      count: READ_COUNT,
      timers: this.options.timers,
      start: async () => {
        const position = first ?? this.position();
        first = null;
        const head = Number((await position).head);
        const from = Math.min(head, this.startBound ?? head);
        this.startBound = null;
        return from;
      },
      reconnected: async (lastSeen) => {
        const [held, , head] = await this.runAppend(connection, [this.headKey, this.streamKey], Math.max(this.floor, lastSeen), []);
        this.saw(head, head);
        return { held, head };
      },
      event: (event) => this.fanOut(event),
      gap: () => {
        for (const listener of [...this.listeners]) if (this.listeners.has(listener)) safely(() => listener.gap());
      },
      onError: this.options.onReaderError,
      onRestored: this.options.onReaderRestored,
    });
  }

  private runAppend(redis: EventLogRedis, keys: string[], floor: number, values: (string | number)[]): Promise<[number, number, number]> {
    const now = this.options.clock?.now().getTime() ?? '';
    return redis.storefrontEventsAppend(keys.length, ...keys, floor, now, this.keepAtLeast, this.keepForMs, RECORD_TTL_MS, ...values);
  }

  private fanOut(event: OrderEvent): void {
    this.saw(Number(event.id), Number(event.id));
    for (const listener of [...this.listeners]) if (this.listeners.has(listener)) safely(() => listener.event(event));
  }

  /** Ids this instance saw: `low` is where a caller may have positioned itself, `high` the newest. */
  private saw(low: number, high: number): void {
    if (high > this.floor) this.floor = high;
    if (this.startBound !== null && low < this.startBound) this.startBound = low;
  }

  private orderKey(orderId: string): string {
    return `${this.prefix}order:${orderId}`;
  }
}
