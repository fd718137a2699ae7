import type { OrderMove } from './order-lifecycle.js';
import type { Order, OrderStatus } from './order.js';
import type { Page, PageRequest } from '../shared/page.js';

/** An Idempotency-Key as scoped by the domain: per customer. */
export interface IdempotencyKeyRef {
  readonly customerId: string;
  readonly key: string;
}

/**
 * A request's claim on an Idempotency-Key. The order the key will place is reserved here, with
 * the first claim, and every later holder of the key places that same order id: whatever happens
 * to the requests, a key can only ever store one order (the store refuses a second order with an
 * id it holds). See docs/decisions.md, "Idempotent order placement".
 */
export interface IdempotencyClaim extends IdempotencyKeyRef {
  /** Hash of the normalised request body; the same key with another body is a conflict. */
  readonly fingerprint: string;
  /** A random token naming the request holding the claim: every later change is filtered on it. */
  readonly owner: string;
  /** The reserved order: its id and creation time. */
  readonly orderId: string;
  readonly orderCreatedAt: Date;
  /** A claim left in flight longer than this (a crashed request) may be taken over. */
  readonly lockExpiresAt: Date;
  /** The record (and its replay) is kept at least until then. */
  readonly expiresAt: Date;
}

/** An Idempotency-Key record as stored: in flight while its holder places the order, then completed. */
export interface IdempotencyRecord extends IdempotencyClaim {
  readonly state: 'in_progress' | 'completed';
}

/** A copy of a key record with dates of its own: what a store keeps, and what it hands out. */
export function copyIdempotencyRecord(record: IdempotencyRecord): IdempotencyRecord {
  return {
    customerId: record.customerId,
    key: record.key,
    state: record.state,
    fingerprint: record.fingerprint,
    owner: record.owner,
    orderId: record.orderId,
    orderCreatedAt: new Date(record.orderCreatedAt.getTime()),
    lockExpiresAt: new Date(record.lockExpiresAt.getTime()),
    expiresAt: new Date(record.expiresAt.getTime()),
  };
}

/**
 * What claiming a key found: a fresh claim, or the key's live record unchanged. A completed record
 * comes with its order (null only if the store lost it, which the domain reports as a failure).
 */
export type ClaimResult =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'held'; readonly record: IdempotencyRecord; readonly order: Order | null };

/** An order whose newest changes are not published as events yet: the outbox's entry. */
export interface UnpublishedOrder {
  readonly order: Order;
  /** The newest version whose event is published; the events of the versions after it are due. */
  readonly publishedVersion: number;
}

/** What `insert` did: stored this order, or found one with its id already stored. */
export interface InsertResult {
  readonly order: Order;
  readonly inserted: boolean;
}

/**
 * Port: where orders and their idempotency keys live. Every change of a key record is atomic and
 * filtered on the record's holder (`owner`), so a request that outlived its lock changes nothing.
 */
export interface OrderRepository {
  /**
   * Creates the key's record from `claim` when it has no live one (none, or one expired at `now`)
   * and answers `claimed`; otherwise answers the live record, changing nothing. Of concurrent
   * claims of a key, exactly one is `claimed`.
   */
  claimIdempotencyKey(claim: IdempotencyClaim, now: Date): Promise<ClaimResult>;
  /**
   * Hands an in-flight record held by `from` to `owner`, locked until `lockExpiresAt`; the
   * fingerprint and the reserved order stay. False when the record is no longer held by `from`.
   */
  takeOverIdempotencyKey(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean>;
  /** Marks the record completed (its reserved order is stored) if `owner` still holds it in flight. */
  completeIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<boolean>;
  /** Ends the lock of the record now, keeping it, if `owner` still holds it in flight. */
  abandonIdempotencyKey(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void>;
  /**
   * Deletes the record if `owner` still holds it in flight. Only for a claim under which nothing
   * was written: it frees the key for another body.
   */
  releaseIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<void>;
  /** Stores an order unless one with its id is stored already; resolves to the stored order. */
  insert(order: Order): Promise<InsertResult>;
  /** One of the customer's orders, or null (also for another customer's order id). */
  findOrder(customerId: string, orderId: string): Promise<Order | null>;
  /** The customer's orders, oldest first (created_at, then order_id), one page. */
  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>>;
  /** Any customer's order by its id (the kitchen's view), or null. */
  findById(orderId: string): Promise<Order | null>;
  /**
   * Applies `move` as one compare-and-set: only if the order's stored version is still
   * `move.fromVersion`, its status, version (+1), `updatedAt`, history (+1 entry) and reason change
   * together. Resolves to the order after the move, or null when the order has moved on meanwhile
   * (or does not exist). Of concurrent moves planned on one version, exactly one wins.
   */
  applyMove(move: OrderMove): Promise<Order | null>;
  /**
   * Removes the delivery address from every order of the customer (erasure of the account); the
   * zone, fee and everything else stay. Orders of other customers are untouched.
   */
  eraseDeliveryAddresses(customerId: string): Promise<void>;
  /**
   * Every customer's orders whose status is one of `statuses`, soonest promised first
   * (fulfilment.promisedAt, then created_at, then order_id: compareKitchenOrders), one page: the kitchen's queue. Its cost must not grow with the orders in other
   * statuses (an index in a database; per-status lists in memory).
   */
  listByStatus(statuses: readonly OrderStatus[], page: PageRequest): Promise<Page<Order>>;
  /**
   * The outbox (docs/decisions.md, "Live order updates"): orders whose version is above their
   * published mark, the least recently changed first, at most `limit`. `insert` and `applyMove`
   * leave the new version unpublished in the same atomic write that stores it (a new order's mark
   * is 0), so a stored change is always found here until it is marked.
   */
  listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]>;
  /** Raises the order's published mark to `version` (never lowers it; unknown ids are ignored). */
  markPublished(orderId: string, version: number): Promise<void>;
}
