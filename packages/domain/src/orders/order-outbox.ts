import type { Order } from './order.js';

/** An order whose newest changes are not published as events yet: the outbox's entry. */
export interface UnpublishedOrder {
  readonly order: Order;
  /** The newest version whose event is published; the events of the versions after it are due. */
  readonly publishedVersion: number;
}

/**
 * Port: the outbox of order changes (docs/decisions.md, "Live order updates"), read by the
 * OrderEventRelay. OrderRepository's `insert` and `applyMove` leave the new version unpublished in
 * the same atomic write that stores it (a new order's mark is 0), so a stored change is always
 * found here until it is marked.
 */
export interface OrderOutbox {
  /** Orders whose version is above their published mark, the least recently changed first, at most `limit`. */
  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]>;
  /** Raises the order's published mark to `version` (never lowers it; unknown ids are ignored). */
  markPublished(orderId: string, version: number): Promise<void>;
  /**
   * `markPublished` of each, in one write where the store can (one round trip for a relay's batch);
   * absent: the relay marks one by one.
   */
  markAllPublished?(marks: readonly PublishedMark[]): Promise<void>;
}

/** An order's version whose events are published. */
export interface PublishedMark {
  readonly orderId: string;
  readonly version: number;
}
