/**
 * Idempotency-Key records in MongoDB, beside the orders (a held claim is answered with its order,
 * read in the claim's causal session). Atomic without transactions: the unique index on
 * (customerId, key) lets one insert create a record, and every later change is one update filtered
 * on its holder (`owner`) and state, so a request taken over changes nothing. The protocol is the
 * domain's PlaceOrder.
 */
import type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef } from '@storefront/domain/adapter-kit';
import { DomainError, type IdempotencyKeys } from '@storefront/domain';
import { setTimeout } from 'node:timers/promises';
import type { ClientSession, Collection, Filter, MongoClient } from 'mongodb';
import { inCausalSession, readIn } from './causal-session.js';
import { INDEXES } from './collections.js';
import { toIdempotencyDocument, toIdempotencyRecord, type IdempotencyDocument } from './idempotency-record.js';
import { toOrder, type OrderDocument } from './order-mapper.js';
import { databaseOperation, isDuplicateKey } from './database-errors.js';
import { isFirstReleaseKeyRecord, upgradeKeyRecord } from './upgrades.js';

/** Each attempt loses only to a request that changed the record meanwhile; a few always suffice. */
const MAX_ATTEMPTS = 5;
/** The pause before attempt n (n ≥ 2) is n × this, so that contenders churning on one key spread out. */
const BACK_OFF_MS = 10;

export class MongoIdempotencyKeys implements IdempotencyKeys {
  constructor(
    private readonly client: MongoClient,
    private readonly records: Collection<IdempotencyDocument>,
    private readonly orders: Collection<OrderDocument>,
  ) {}

  claim(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    return databaseOperation(async () => {
      const fresh = toIdempotencyDocument(claim);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (attempt > 1) await setTimeout(attempt * BACK_OFF_MS);
        const result = await inCausalSession(this.client, (session) => this.attemptClaim(claim, fresh, now, session));
        if (result !== undefined) return result;
      }
      throw new DomainError('idempotency_key_in_use', 'A request with this idempotency key is still being processed; retry later.');
    });
  }

  /** One insert and, when it loses the race, the winner's record read in the same causal session. */
  private async attemptClaim(claim: IdempotencyClaim, fresh: IdempotencyDocument, now: Date, session: ClientSession): Promise<ClaimResult | undefined> {
    try {
      await this.records.insertOne({ ...fresh }, { session });
      return { kind: 'claimed' };
    } catch (error) {
      if (!isDuplicateKey(error, INDEXES.idempotencyKey)) throw error;
    }
    const record = await this.records.findOne(keyOf(claim), readIn(session, this.records));
    // Gone since the insert failed (released, or removed by the TTL monitor): insert again.
    if (record === null) return undefined;
    if (isFirstReleaseKeyRecord(record)) {
      // Written by the first release (an instance of it still running): upgraded, then read again.
      await upgradeKeyRecord(this.records, this.orders, record);
      return undefined;
    }
    if (record.expiresAt.getTime() <= now.getTime()) {
      // Past its expiry the record is as good as gone (the TTL monitor runs about once a minute):
      // a new lifetime of the key replaces it, unless another request did so first.
      const replaced = await this.records.updateOne({ _id: record._id, owner: record.owner, expiresAt: record.expiresAt }, { $set: fresh });
      return replaced.matchedCount === 1 ? { kind: 'claimed' } : undefined;
    }
    // Completed after the order was stored: the session's reads see that order too.
    const order = record.state === 'completed' ? await this.orders.findOne({ _id: record.orderId, customerId: record.customerId }, readIn(session, this.orders)) : null;
    return { kind: 'held', record: toIdempotencyRecord(record), order: order === null ? null : toOrder(order) };
  }

  takeOver(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const taken = await this.records.updateOne(heldBy(ref, from), { $set: { owner, lockExpiresAt } });
      return taken.matchedCount === 1;
    });
  }

  complete(ref: IdempotencyKeyRef, owner: string): Promise<boolean> {
    return databaseOperation(async () => {
      const completed = await this.records.updateOne(heldBy(ref, owner), { $set: { state: 'completed' } });
      return completed.matchedCount === 1;
    });
  }

  abandon(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void> {
    return databaseOperation(async () => {
      await this.records.updateOne(heldBy(ref, owner), { $set: { lockExpiresAt: now } });
    });
  }

  /** Deletes an in-flight record of this holder only: a completed one keeps its replay. */
  release(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    return databaseOperation(async () => {
      await this.records.deleteOne(heldBy(ref, owner));
    });
  }
}

function keyOf(ref: IdempotencyKeyRef): Filter<IdempotencyDocument> {
  return { customerId: ref.customerId, key: ref.key };
}

/** The record of the key, while `owner` holds it in flight: the compare of every compare-and-set. */
function heldBy(ref: IdempotencyKeyRef, owner: string): Filter<IdempotencyDocument> {
  return { customerId: ref.customerId, key: ref.key, state: 'in_progress', owner };
}
