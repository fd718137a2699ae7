/**
 * Idempotency-Key records as stored: one per customer and key (a unique index), `in_progress`
 * while its holder (`owner`) places the reserved order, then `completed`. The mapping to the
 * domain's IdempotencyRecord is field for field; dates are copied so that neither side can change
 * the other's.
 */
import type { IdempotencyClaim, IdempotencyRecord } from '@storefront/domain';
import type { ObjectId } from 'mongodb';

export interface IdempotencyDocument {
  _id?: ObjectId;
  customerId: string;
  key: string;
  state: 'in_progress' | 'completed';
  fingerprint: string;
  owner: string;
  orderId: string;
  orderCreatedAt: Date;
  lockExpiresAt: Date;
  /** Removed by the TTL index some time after this; until then readers treat it as gone. */
  expiresAt: Date;
}

/** A new lifetime of the key, held by the claim. */
export function toIdempotencyDocument(claim: IdempotencyClaim): IdempotencyDocument {
  return {
    customerId: claim.customerId,
    key: claim.key,
    state: 'in_progress',
    fingerprint: claim.fingerprint,
    owner: claim.owner,
    orderId: claim.orderId,
    orderCreatedAt: new Date(claim.orderCreatedAt.getTime()),
    lockExpiresAt: new Date(claim.lockExpiresAt.getTime()),
    expiresAt: new Date(claim.expiresAt.getTime()),
  };
}

export function toIdempotencyRecord(document: IdempotencyDocument): IdempotencyRecord {
  return {
    customerId: document.customerId,
    key: document.key,
    state: document.state,
    fingerprint: document.fingerprint,
    owner: document.owner,
    orderId: document.orderId,
    orderCreatedAt: new Date(document.orderCreatedAt.getTime()),
    lockExpiresAt: new Date(document.lockExpiresAt.getTime()),
    expiresAt: new Date(document.expiresAt.getTime()),
  };
}
