/**
 * Idempotency-Key records of the in-memory order store, keyed by customer and key. A record is kept
 * until its `expiresAt`; expired records are dropped when met and by a sweep whose cost is spread
 * over the claims that grow the map, so memory follows the keys of the last TTL, not all time.
 */
import type { IdempotencyClaim } from '@storefront/domain';
import type { OrderRow } from './customer-order-log.js';

export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly lockExpiresAtMs: number;
  readonly expiresAtMs: number;
  /** Set when the claimed request stored its order. */
  order: OrderRow | null;
}

const MIN_SWEEP_INTERVAL = 1024;

function recordId(customerId: string, key: string): string {
  // Length-prefixed so that no (customer, key) pair can collide with another.
  return `${customerId.length}:${customerId}:${key}`;
}

export class IdempotencyRecords {
  private readonly records = new Map<string, IdempotencyRecord>();
  private writesSinceSweep = 0;
  private sizeAfterSweep = 0;

  get size(): number {
    return this.records.size;
  }

  /** The live record, or undefined when there is none or it has expired. */
  find(customerId: string, key: string, nowMs: number): IdempotencyRecord | undefined {
    const record = this.records.get(recordId(customerId, key));
    return record !== undefined && record.expiresAtMs > nowMs ? record : undefined;
  }

  /** Starts a new in-flight record, replacing whatever was there. */
  open(claim: IdempotencyClaim, nowMs: number): void {
    const id = recordId(claim.customerId, claim.key);
    this.records.delete(id);
    this.records.set(id, {
      fingerprint: claim.fingerprint,
      lockExpiresAtMs: claim.lockExpiresAt.getTime(),
      expiresAtMs: claim.expiresAt.getTime(),
      order: null,
    });
    this.writesSinceSweep += 1;
    // Waiting for as many writes as the last sweep left records keeps the cost O(1) per write.
    if (this.writesSinceSweep >= Math.max(MIN_SWEEP_INTERVAL, this.sizeAfterSweep)) this.sweep(nowMs);
  }

  /** Drops an in-flight record; a completed one stays, so that its order can still be replayed. */
  release(customerId: string, key: string): void {
    const id = recordId(customerId, key);
    if (this.records.get(id)?.order === null) this.records.delete(id);
  }

  complete(customerId: string, key: string, order: OrderRow): void {
    const record = this.records.get(recordId(customerId, key));
    if (record !== undefined && record.order === null) record.order = order;
  }

  sweep(nowMs: number): void {
    for (const [id, record] of this.records) if (record.expiresAtMs <= nowMs) this.records.delete(id);
    this.writesSinceSweep = 0;
    this.sizeAfterSweep = this.records.size;
  }
}
