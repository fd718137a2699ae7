/**
 * Idempotency-Key records of the in-memory order store, keyed by customer and key. A record is kept
 * until its `expiresAt`; expired records are dropped when met and by a sweep whose cost is spread
 * over the claims that grow the map, so memory follows the keys of the last TTL, not all time.
 * Every change is filtered on the record's holder, as in every store (see the IdempotencyKeys port).
 * A record is kept with its times as numbers and handed out as a fresh IdempotencyRecord: every
 * placement leaves one for a day, and three Date objects each were most of it.
 */
import type { IdempotencyClaim, IdempotencyKeyRef, IdempotencyRecord } from '@storefront/domain/adapter-kit';
import { SweepSchedule } from './sweep-schedule.js';

const MIN_SWEEP_INTERVAL = 1024;

/** A record as this map keeps it (the key's customer and key are the map's key). */
export interface KeptRecord {
  readonly state: IdempotencyRecord['state'];
  readonly fingerprint: string;
  readonly owner: string;
  readonly orderId: string;
  readonly orderCreatedAtMs: number;
  readonly lockExpiresAtMs: number;
  readonly expiresAtMs: number;
}

/** What a holder may change of its in-flight record. */
export interface RecordChange {
  readonly owner?: string;
  readonly lockExpiresAtMs?: number;
  readonly state?: IdempotencyRecord['state'];
}

function recordId(ref: IdempotencyKeyRef): string {
  // Length-prefixed so that no (customer, key) pair can collide with another.
  return `${ref.customerId.length}:${ref.customerId}:${ref.key}`;
}

export class IdempotencyRecords {
  private readonly records = new Map<string, KeptRecord>();
  private readonly sweeps = new SweepSchedule(MIN_SWEEP_INTERVAL);

  get size(): number {
    return this.records.size;
  }

  /** The live record, or undefined when there is none or it has expired. */
  find(ref: IdempotencyKeyRef, nowMs: number): KeptRecord | undefined {
    const record = this.records.get(recordId(ref));
    return record !== undefined && record.expiresAtMs > nowMs ? record : undefined;
  }

  /** Starts a new record (in flight unless `state` says completed), replacing whatever was there. */
  open(claim: IdempotencyClaim, nowMs: number, state: IdempotencyRecord['state'] = 'in_progress'): void {
    const id = recordId(claim);
    this.records.delete(id);
    this.records.set(
      id,
      Object.freeze({
        state,
        fingerprint: claim.fingerprint,
        owner: claim.owner,
        orderId: claim.orderId,
        orderCreatedAtMs: claim.orderCreatedAt.getTime(),
        lockExpiresAtMs: claim.lockExpiresAt.getTime(),
        expiresAtMs: claim.expiresAt.getTime(),
      }),
    );
    if (this.sweeps.wrote()) this.sweep(nowMs);
  }

  /** Replaces the in-flight record held by `owner` with `change` applied; false when not held. */
  change(ref: IdempotencyKeyRef, owner: string, change: RecordChange): boolean {
    const id = recordId(ref);
    const record = this.records.get(id);
    if (record === undefined || record.state !== 'in_progress' || record.owner !== owner) return false;
    this.records.set(
      id,
      Object.freeze({
        state: change.state ?? record.state,
        fingerprint: record.fingerprint,
        owner: change.owner ?? record.owner,
        orderId: record.orderId,
        orderCreatedAtMs: record.orderCreatedAtMs,
        lockExpiresAtMs: change.lockExpiresAtMs ?? record.lockExpiresAtMs,
        expiresAtMs: record.expiresAtMs,
      }),
    );
    return true;
  }

  /** Drops the in-flight record held by `owner`; a completed one stays, so that it can be replayed. */
  release(ref: IdempotencyKeyRef, owner: string): void {
    const id = recordId(ref);
    const record = this.records.get(id);
    if (record !== undefined && record.state === 'in_progress' && record.owner === owner) this.records.delete(id);
  }

  sweep(nowMs: number): void {
    for (const [id, record] of this.records) if (record.expiresAtMs <= nowMs) this.records.delete(id);
    this.sweeps.swept(this.records.size);
  }
}

/** The kept record of `ref` as the port hands it out: with dates of its own, frozen. */
export function handedOut(ref: IdempotencyKeyRef, record: KeptRecord): IdempotencyRecord {
  return Object.freeze({
    customerId: ref.customerId,
    key: ref.key,
    state: record.state,
    fingerprint: record.fingerprint,
    owner: record.owner,
    orderId: record.orderId,
    orderCreatedAt: new Date(record.orderCreatedAtMs),
    lockExpiresAt: new Date(record.lockExpiresAtMs),
    expiresAt: new Date(record.expiresAtMs),
  });
}
