/**
 * Idempotency-Key records of the in-memory order store, keyed by customer and key. A record is kept
 * until its `expiresAt`; expired records are dropped when met and by a sweep whose cost is spread
 * over the claims that grow the map, so memory follows the keys of the last TTL, not all time.
 * Every change is filtered on the record's holder, as in every store (see the IdempotencyKeys port).
 */
import type { IdempotencyClaim, IdempotencyKeyRef, IdempotencyRecord } from '@storefront/domain/adapter-kit';
import { copyIdempotencyRecord, recordOfClaim } from '@storefront/domain/adapter-kit';
import { SweepSchedule } from './sweep-schedule.js';

const MIN_SWEEP_INTERVAL = 1024;

function recordId(ref: IdempotencyKeyRef): string {
  // Length-prefixed so that no (customer, key) pair can collide with another.
  return `${ref.customerId.length}:${ref.customerId}:${ref.key}`;
}

export class IdempotencyRecords {
  private readonly records = new Map<string, IdempotencyRecord>();
  private readonly sweeps = new SweepSchedule(MIN_SWEEP_INTERVAL);

  get size(): number {
    return this.records.size;
  }

  /** The live record, or undefined when there is none or it has expired. */
  find(ref: IdempotencyKeyRef, nowMs: number): IdempotencyRecord | undefined {
    const record = this.records.get(recordId(ref));
    return record !== undefined && record.expiresAt.getTime() > nowMs ? record : undefined;
  }

  /** Starts a new record (in flight unless `state` says completed), replacing whatever was there. */
  open(claim: IdempotencyClaim, nowMs: number, state: IdempotencyRecord['state'] = 'in_progress'): void {
    const id = recordId(claim);
    this.records.delete(id);
    this.records.set(id, Object.freeze(recordOfClaim(claim, state)));
    if (this.sweeps.wrote()) this.sweep(nowMs);
  }

  /** Replaces the in-flight record held by `owner` with `change` applied; false when not held. */
  change(ref: IdempotencyKeyRef, owner: string, change: Partial<Pick<IdempotencyRecord, 'owner' | 'lockExpiresAt' | 'state'>>): boolean {
    const id = recordId(ref);
    const record = this.records.get(id);
    if (record === undefined || record.state !== 'in_progress' || record.owner !== owner) return false;
    // Object.assign, not `{ ...record, ...change }`: see recordOfClaim.
    this.records.set(id, copyRecord(Object.assign({}, record, change)));
    return true;
  }

  /** Drops the in-flight record held by `owner`; a completed one stays, so that it can be replayed. */
  release(ref: IdempotencyKeyRef, owner: string): void {
    const id = recordId(ref);
    const record = this.records.get(id);
    if (record !== undefined && record.state === 'in_progress' && record.owner === owner) this.records.delete(id);
  }

  sweep(nowMs: number): void {
    for (const [id, record] of this.records) if (record.expiresAt.getTime() <= nowMs) this.records.delete(id);
    this.sweeps.swept(this.records.size);
  }
}

/** A frozen copy with its own dates, so that neither the caller nor a reader can change a stored record. */
export function copyRecord(record: IdempotencyRecord): IdempotencyRecord {
  return Object.freeze(copyIdempotencyRecord(record));
}
