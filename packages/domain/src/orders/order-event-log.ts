import type { OrderEvent, OrderEventData } from './order-event.js';

/** What `readAfter` found: the events after the id, or `reset` when the id is outside the window. */
export type EventReplay =
  | {
      readonly kind: 'events';
      /** Oldest first, at most the limit asked for. */
      readonly events: readonly OrderEvent[];
      /** True when the limit cut the answer: read again after the last event. */
      readonly more: boolean;
    }
  | { readonly kind: 'reset' };

/** Where the log is, read in one atomic step. */
export interface LogPosition {
  /** The id of the newest event (or the log's floor, `0` when it never held one). */
  readonly head: string;
  /**
   * The version carried by the newest event appended for the order asked about; 0 when the log
   * knows none (nothing published yet, or published longer ago than the log remembers).
   */
  readonly orderVersion: number;
}

/** Live delivery: every event in id order, and a gap when the log lost events this instance had not read. */
export interface OrderEventListener {
  event(event: OrderEvent): void;
  /** Events may have been missed (e.g. a log server restarted without persistence): readers should start over. */
  gap(): void;
}

/**
 * Port: the log of order events that the live streams read (docs/decisions.md, "Live order
 * updates"). In memory it is an array in the process; in production a log shared by every
 * instance.
 *
 * Ids are decimal integers given by the log in append order, consecutive (no holes), so that a
 * reader can tell a replay is complete and a subscriber can tell it missed something.
 */
export interface OrderEventLog {
  /**
   * Appends the events in order, giving each the next id. Idempotent per order: an event whose
   * version is not above the newest version the log holds for its order is skipped (a publisher
   * that retries after a crash, or two instances publishing the same change, add it once). The
   * events of one order must come in version order. Rejects when the log is unreachable; nothing
   * of the call may then be half-visible to readers out of order (a retry completes it).
   */
  append(events: readonly OrderEventData[]): Promise<void>;
  /** The head and, when `orderId` is given, the newest version published for that order, read together. */
  position(orderId?: string): Promise<LogPosition>;
  /**
   * The events after `after`, oldest first, at most `limit`. `reset` when `after` is not an id, is
   * beyond the head, or is older than the window (the events after it are no longer all held).
   * The window is the last hour, and never fewer than the newest 10,000 events.
   */
  readAfter(after: string, limit: number): Promise<EventReplay>;
  /**
   * Live events as this instance learns of them (its own appends and, through a shared log, every
   * other instance's), in id order, each once. Events appended before the call may be delivered
   * too: readers drop ids they already have. Returns the unsubscribe function.
   */
  subscribe(listener: OrderEventListener): () => void;
  /**
   * The customer's account was erased: the `order.placed` events held for their orders carry the
   * order without its delivery address from now on (ids, order and window unchanged). Idempotent.
   */
  eraseDeliveryAddresses(customerId: string): Promise<void>;
}
