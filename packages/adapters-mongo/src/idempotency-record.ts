/**
 * Idempotency-Key records as stored: one per customer and key (a unique index), first
 * `in_progress` while the claiming request places its order, then `completed` with that order's id.
 * A record lives through several claims when crashed ones are taken over; `claimedAt` is when its
 * current lifetime began, which tells an order placed under it from one of an earlier, expired
 * lifetime of the same key.
 */
import type { IdempotencyClaim } from '@storefront/domain';
import type { ObjectId } from 'mongodb';

export type IdempotencyState = 'in_progress' | 'completed';

export interface IdempotencyDocument {
  _id?: ObjectId;
  customerId: string;
  key: string;
  state: IdempotencyState;
  fingerprint: string;
  lockExpiresAt: Date;
  /** Removed by the TTL index some time after this; until then readers treat it as gone. */
  expiresAt: Date;
  claimedAt: Date;
  /** Set when completed. */
  orderId?: string;
}

/** A new lifetime of the key, held by the claim. */
export function newRecord(claim: IdempotencyClaim, now: Date): IdempotencyDocument {
  return {
    customerId: claim.customerId,
    key: claim.key,
    state: 'in_progress',
    fingerprint: claim.fingerprint,
    lockExpiresAt: new Date(claim.lockExpiresAt.getTime()),
    expiresAt: new Date(claim.expiresAt.getTime()),
    claimedAt: new Date(now.getTime()),
  };
}

/** What a takeover changes: the holder's lock and body, not when the lifetime began. */
export function takeoverFields(claim: IdempotencyClaim): Pick<IdempotencyDocument, 'fingerprint' | 'lockExpiresAt' | 'expiresAt'> {
  return {
    fingerprint: claim.fingerprint,
    lockExpiresAt: new Date(claim.lockExpiresAt.getTime()),
    expiresAt: new Date(claim.expiresAt.getTime()),
  };
}

/** True when `orderCreatedAt` falls in the record's current lifetime. */
export function placedUnder(record: IdempotencyDocument, orderCreatedAt: Date): boolean {
  return orderCreatedAt.getTime() >= record.claimedAt.getTime();
}
