/**
 * Idempotency-Key records in process memory, beside the orders of an InMemoryOrderRepository:
 * a claim that finds a completed record reads its order from that store's rows in the same step.
 * Every method runs to completion without awaiting, so exactly one concurrent caller gets
 * `claimed`, and a change filtered on a record's holder sees the record as it is. For the same
 * reason a fresh key's claim, order and completion are one step here too (KeyedOrderWrites).
 */
import type { IdempotencyKeys, Order } from '@storefront/domain';
import type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, KeyedOrderWrites } from '@storefront/domain/adapter-kit';
import { handedOut, IdempotencyRecords } from './idempotency-records.js';
import type { InMemoryOrderRepository } from './in-memory-order-repository.js';

export class InMemoryIdempotencyKeys implements IdempotencyKeys, KeyedOrderWrites {
  private readonly records = new IdempotencyRecords();

  constructor(private readonly orders: InMemoryOrderRepository) {}

  /** Records currently held (expired ones included until swept). */
  get recordCount(): number {
    return this.records.size;
  }

  async claim(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    const nowMs = now.getTime();
    const record = this.records.find(claim, nowMs);
    if (record === undefined) {
      this.records.open(claim, nowMs);
      return { kind: 'claimed' };
    }
    const order = record.state === 'completed' ? this.orders.find(claim.customerId, record.orderId) : null;
    return { kind: 'held', record: handedOut(claim, record), order };
  }

  async placeFresh(claim: IdempotencyClaim, order: Order, now: Date): Promise<'placed' | 'held'> {
    const nowMs = now.getTime();
    if (this.records.find(claim, nowMs) !== undefined) return 'held';
    this.orders.insertNow(order);
    this.records.open(claim, nowMs, 'completed');
    return 'placed';
  }

  async takeOver(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean> {
    return this.records.change(ref, from, { owner, lockExpiresAtMs: lockExpiresAt.getTime() });
  }

  async complete(ref: IdempotencyKeyRef, owner: string): Promise<boolean> {
    return this.records.change(ref, owner, { state: 'completed' });
  }

  async abandon(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void> {
    this.records.change(ref, owner, { lockExpiresAtMs: now.getTime() });
  }

  async release(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    this.records.release(ref, owner);
  }
}
