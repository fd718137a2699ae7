/**
 * Idempotency-Key claims for MongoOrderRepository, atomic without transactions: the unique index
 * on (customerId, key) lets exactly one insert create a record, and every later change of a record
 * (takeover, completion, a new lifetime) is an update filtered on the state it was decided from,
 * so of two requests deciding from the same state exactly one wins and the other looks again.
 */
import type { ClaimResult, IdempotencyClaim } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import type { Collection, Filter, WithId } from 'mongodb';
import { INDEXES } from './collections.js';
import { newRecord, placedUnder, takeoverFields, type IdempotencyDocument } from './idempotency-record.js';
import { toOrder, type OrderDocument } from './order-mapper.js';
import { isDuplicateKey } from './store-errors.js';

type StoredRecord = WithId<IdempotencyDocument>;

const CLAIMED: ClaimResult = { kind: 'claimed' };
/** Each attempt loses only to a request that changed the record meanwhile; a few always suffice. */
const MAX_ATTEMPTS = 5;

export class MongoIdempotencyKeys {
  constructor(
    private readonly records: Collection<IdempotencyDocument>,
    private readonly orders: Collection<OrderDocument>,
  ) {}

  async claim(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await this.records.insertOne(newRecord(claim, now));
        return CLAIMED;
      } catch (error) {
        if (!isDuplicateKey(error, INDEXES.idempotencyKey)) throw error;
      }
      const record = await this.records.findOne({ customerId: claim.customerId, key: claim.key });
      // Gone since the insert failed (released, or removed by the TTL monitor): insert again.
      if (record === null) continue;
      const result = await this.settle(record, claim, now);
      if (result !== null) return result;
    }
    throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later.');
  }

  /** Deletes an in-flight record only: a completed one keeps its replay. */
  async release(customerId: string, key: string): Promise<void> {
    await this.records.deleteOne({ customerId, key, state: 'in_progress' });
  }

  async complete(customerId: string, key: string, orderId: string): Promise<void> {
    await this.records.updateOne({ customerId, key, state: 'in_progress' }, { $set: { state: 'completed', orderId } });
  }

  /**
   * Called when an order could not be stored because another order already holds its key. If that
   * order was placed under the key's current claim (a request that outlived its lock, racing the
   * one that took it over), it is the key's order: the claim is completed with it and the caller is
   * told to retry, which replays it. If it is left from an expired, earlier lifetime of the key, it
   * lets go of the key so that the caller can store its order.
   */
  async resolveOrderConflict(customerId: string, key: string): Promise<void> {
    const holder = await this.orders.findOne({ customerId, idempotencyKey: key });
    if (holder === null) return;
    const record = await this.records.findOne({ customerId, key });
    if (record !== null && placedUnder(record, holder.createdAt)) {
      await this.records.updateOne({ _id: record._id, state: 'in_progress' }, { $set: { state: 'completed', orderId: holder._id } });
      throw new DomainError('idempotency_key_in_use', 'Another request with this Idempotency-Key placed the order; retry to get it.');
    }
    await this.orders.updateOne({ _id: holder._id, idempotencyKey: key }, { $unset: { idempotencyKey: '' } });
  }

  /** What an existing record means for this claim; null when another request changed it first. */
  private async settle(record: StoredRecord, claim: IdempotencyClaim, now: Date): Promise<ClaimResult | null> {
    const nowMs = now.getTime();
    // Past its expiry the record is as good as gone; the TTL monitor just has not removed it yet.
    if (record.expiresAt.getTime() <= nowMs) return this.renew(record, claim, now);
    if (record.state === 'completed') {
      const order = record.orderId === undefined ? null : await this.orders.findOne({ _id: record.orderId });
      // An order is stored before its claim is completed, so a missing one was deleted since.
      if (order === null) return this.renew(record, claim, now);
      return { kind: 'completed', fingerprint: record.fingerprint, order: toOrder(order) };
    }
    if (record.lockExpiresAt.getTime() > nowMs) return { kind: 'in_progress', fingerprint: record.fingerprint };

    // The holder is presumed dead. If it stored its order before dying, that order is the key's.
    const stored = await this.orders.findOne({ customerId: claim.customerId, idempotencyKey: claim.key });
    if (stored !== null && placedUnder(record, stored.createdAt)) {
      const completed = await this.records.updateOne(unchanged(record), { $set: { state: 'completed', orderId: stored._id } });
      return completed.matchedCount === 1 ? { kind: 'completed', fingerprint: record.fingerprint, order: toOrder(stored) } : null;
    }
    const taken = await this.records.findOneAndUpdate(unchanged(record), { $set: takeoverFields(claim) });
    return taken === null ? null : CLAIMED;
  }

  /** Starts a new lifetime of the key in place of an expired or broken record. */
  private async renew(record: StoredRecord, claim: IdempotencyClaim, now: Date): Promise<ClaimResult | null> {
    const { customerId: _c, key: _k, ...fields } = newRecord(claim, now);
    const renewed = await this.records.updateOne(unchanged(record), { $set: fields, $unset: { orderId: '' } });
    return renewed.matchedCount === 1 ? CLAIMED : null;
  }
}

/** Matches the record only while it is still as it was read: the compare of compare-and-swap. */
function unchanged(record: StoredRecord): Filter<IdempotencyDocument> {
  return {
    _id: record._id,
    state: record.state,
    lockExpiresAt: record.lockExpiresAt,
    expiresAt: record.expiresAt,
  };
}
