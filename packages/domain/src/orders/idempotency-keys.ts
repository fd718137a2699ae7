import type { Order } from './order.js';

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
  return recordOfClaim(record, record.state);
}

/**
 * The record of `claim` in `state`, with dates of its own. Written field by field rather than
 * `{ ...claim, state }`: see `withFields` (shared/objects.ts) for why.
 */
export function recordOfClaim(claim: IdempotencyClaim, state: IdempotencyRecord['state']): IdempotencyRecord {
  return {
    customerId: claim.customerId,
    key: claim.key,
    state,
    fingerprint: claim.fingerprint,
    owner: claim.owner,
    orderId: claim.orderId,
    orderCreatedAt: new Date(claim.orderCreatedAt.getTime()),
    lockExpiresAt: new Date(claim.lockExpiresAt.getTime()),
    expiresAt: new Date(claim.expiresAt.getTime()),
  };
}

/**
 * What claiming a key found: a fresh claim, or the key's live record unchanged. A completed record
 * comes with its order (null only if the store lost it, which the domain reports as a failure).
 */
export type ClaimResult =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'held'; readonly record: IdempotencyRecord; readonly order: Order | null };

/**
 * Port: the Idempotency-Key records of order placement (the protocol is the domain's PlaceOrder).
 * Every change of a record is atomic and filtered on the record's holder (`owner`), so a request
 * that outlived its lock changes nothing.
 */
export interface IdempotencyKeys {
  /**
   * Creates the key's record from `claim` when it has no live one (none, or one expired at `now`)
   * and answers `claimed`; otherwise answers the live record, changing nothing (a completed one
   * with its order, which the adapter reads from where it stores orders). Of concurrent
   * claims of a key, exactly one is `claimed`.
   */
  claim(claim: IdempotencyClaim, now: Date): Promise<ClaimResult>;
  /**
   * Hands an in-flight record held by `from` to `owner`, locked until `lockExpiresAt`; the
   * fingerprint and the reserved order stay. False when the record is no longer held by `from`.
   */
  takeOver(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean>;
  /** Marks the record completed (its reserved order is stored) if `owner` still holds it in flight. */
  complete(ref: IdempotencyKeyRef, owner: string): Promise<boolean>;
  /** Ends the lock of the record now, keeping it, if `owner` still holds it in flight. */
  abandon(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void>;
  /**
   * Deletes the record if `owner` still holds it in flight. Only for a claim under which nothing
   * was written: it frees the key for another body.
   */
  release(ref: IdempotencyKeyRef, owner: string): Promise<void>;
}
