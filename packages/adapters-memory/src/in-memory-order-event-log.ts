/**
 * The order event log in process memory (the embedded default): the Redis log's rules (dense ids
 * from 1, appends idempotent per order and version, the window of the last hour and at least the
 * newest 10,000 events) with no I/O. Memory is bounded: events are trimmed on append, and an
 * order's record is dropped once its event left the window and it was written over 24 h ago.
 */
import type { Clock, OrderEvent, OrderEventLog } from '@storefront/domain';
import type { EventReplay, LogPosition, OrderEventData, OrderEventListener } from '@storefront/domain/adapter-kit';
import { isEventId, systemClock, withFields, withoutDeliveryAddress } from '@storefront/domain/adapter-kit';

export interface InMemoryOrderEventLogOptions {
  readonly clock?: Clock | undefined;
  /** Fewest events kept, however old. Default 10,000. */
  readonly keepAtLeast?: number | undefined;
  /** Events younger than this are kept, however many. Default one hour. */
  readonly keepForMs?: number | undefined;
}

/** How long an order's record outlives its last write: long enough for any retried publish. */
const RECORD_MS = 24 * 3600_000;

interface OrderRecord {
  readonly version: number;
  /** The id (as a number) of the order's newest event. */
  readonly seq: number;
  readonly atMs: number;
}

export class InMemoryOrderEventLog implements OrderEventLog {
  private readonly clock: Clock;
  private readonly keepAtLeast: number;
  private readonly keepForMs: number;
  /**
   * Held events from index `start` on, oldest first: `held[start]` has id `head - count + 1`; when
   * each was appended in `heldAtMs` at the same index (an array of numbers keeps them unboxed, where
   * an object per event would be two more objects kept for every order of the last hour).
   */
  private held: OrderEvent[] = [];
  private heldAtMs: number[] = [];
  private start = 0;
  private head = 0;
  /** Map order is write order (a write re-inserts), so the oldest record is always first. */
  private readonly records = new Map<string, OrderRecord>();
  private readonly listeners = new Set<OrderEventListener>();
  /** Events waiting for fan-out: an append made by a listener is delivered after the current one, keeping id order. */
  private readonly outgoing: OrderEvent[] = [];
  private delivering = false;

  constructor(options: InMemoryOrderEventLogOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.keepAtLeast = Math.max(1, options.keepAtLeast ?? 10_000);
    this.keepForMs = Math.max(0, options.keepForMs ?? 3600_000);
  }

  append(events: readonly OrderEventData[]): Promise<void> {
    const now = this.clock.now().getTime();
    for (const data of events) {
      const record = this.records.get(data.orderId);
      if (record !== undefined && data.version <= record.version) continue;
      const event: OrderEvent = withFields(data, { id: String(++this.head) });
      this.held.push(event);
      this.heldAtMs.push(now);
      this.records.delete(data.orderId);
      this.records.set(data.orderId, { version: data.version, seq: this.head, atMs: now });
      this.outgoing.push(event);
    }
    this.trim(now);
    this.deliver();
    return Promise.resolve();
  }

  position(orderId?: string): Promise<LogPosition> {
    const orderVersion = orderId === undefined ? 0 : (this.records.get(orderId)?.version ?? 0);
    return Promise.resolve({ head: String(this.head), orderVersion });
  }

  readAfter(after: string, limit: number): Promise<EventReplay> {
    if (!isEventId(after)) return Promise.resolve({ kind: 'reset' });
    const from = Number(after);
    if (from > this.head || from < this.firstHeld() - 1) return Promise.resolve({ kind: 'reset' });
    const index = this.start + (from + 1 - this.firstHeld());
    const count = limit >= 1 ? Math.floor(limit) : 1;
    const events = this.held.slice(index, index + count);
    return Promise.resolve({ kind: 'events', events, more: from + events.length < this.head });
  }

  subscribe(listener: OrderEventListener): () => void {
    // A wrapper, so that one listener subscribed twice is two subscriptions.
    const entry: OrderEventListener = { event: (event) => listener.event(event), gap: () => listener.gap() };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  eraseDeliveryAddresses(customerId: string): Promise<void> {
    for (let i = this.start; i < this.held.length; i++) {
      const event = this.held[i]!;
      if (event.customerId !== customerId || event.order === undefined) continue;
      const order = withoutDeliveryAddress(event.order);
      if (order !== event.order) this.held[i] = withFields(event, { order });
    }
    return Promise.resolve();
  }

  /** The id of the oldest held event; head + 1 when none is held. */
  private firstHeld(): number {
    return this.head - (this.held.length - this.start) + 1;
  }

  /** Drops events outside the window (not among the newest `keepAtLeast` and older than `keepForMs`), then stale records. */
  private trim(now: number): void {
    const cutoff = now - this.keepForMs;
    while (this.held.length - this.start > this.keepAtLeast && this.heldAtMs[this.start]! <= cutoff) this.start++;
    // Compact now and then rather than shifting the array on every trimmed event.
    if (this.start > 1024 && this.start * 2 > this.held.length) {
      this.held = this.held.slice(this.start);
      this.heldAtMs = this.heldAtMs.slice(this.start);
      this.start = 0;
    }
    const firstHeld = this.firstHeld();
    for (const [orderId, record] of this.records) {
      if (record.seq >= firstHeld || record.atMs + RECORD_MS > now) break;
      this.records.delete(orderId);
    }
  }

  /** Hands queued events to every listener, in id order; a listener that throws does not stop the others. */
  private deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let i = 0; i < this.outgoing.length; i++) {
        const event = this.outgoing[i]!;
        for (const listener of [...this.listeners]) {
          if (!this.listeners.has(listener)) continue;
          try {
            listener.event(event);
          } catch {
            // A listener's failure is its own (a closed stream): the log and the other listeners go on.
          }
        }
      }
    } finally {
      this.outgoing.length = 0;
      this.delivering = false;
    }
  }
}
