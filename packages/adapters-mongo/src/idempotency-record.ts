/**
 * Idempotency-Key records as stored: one per customer and key (a unique index), `in_progress`
 * while its holder (`owner`) places the reserved order, then `completed`. The mapping to the
 * domain's IdempotencyRecord is field for field; dates are copied so that neither side can change
 * the other's.
 */
import type { IdempotencyClaim, IdempotencyRecord } from '@storefront/domain/adapter-kit';
import { copyIdempotencyRecord, recordOfClaim } from '@storefront/domain/adapter-kit';
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
  return recordOfClaim(claim, 'in_progress');
}

/** The record's fields only (no `_id`), with dates of their own. */
export function toIdempotencyRecord(document: IdempotencyDocument): IdempotencyRecord {
  return copyIdempotencyRecord(document);
}
