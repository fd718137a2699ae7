/**
 * Idempotency-Key records in PostgreSQL, beside the orders (a held claim is answered with its
 * order in the same statement). A claim is one INSERT … ON CONFLICT on (customer_id, key): one
 * request creates a live record, and the conflict arm replaces only an expired one, under the row
 * lock. Every later change is filtered on the holder (`owner`) and state, so a request taken over
 * changes nothing. The protocol is the domain's PlaceOrder.
 */
import type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, IdempotencyRecord } from '@storefront/domain/adapter-kit';
import { DomainError, type IdempotencyKeys } from '@storefront/domain';
import { copyIdempotencyRecord } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { expirySweep } from './expiry-sweep.js';
import { copyDate } from './account-mappers.js';
import { ORDER_COLUMNS, toOrder, type OrderRow } from './order-mapper.js';

/** Each attempt loses only to a request that released the record meanwhile; a few always suffice. */
const MAX_ATTEMPTS = 5;

export const KEY_COLUMNS = 'customer_id, key, state, fingerprint, owner, order_id, order_created_at, lock_expires_at, expires_at';

interface KeyRow {
  customer_id: string;
  key: string;
  state: 'in_progress' | 'completed';
  fingerprint: string;
  owner: string;
  order_id: string;
  order_created_at: Date;
  lock_expires_at: Date;
  expires_at: Date;
}

/** Records a claim sweeps: more than one, so that they never pile up faster than they are removed. */
export const KEY_SWEEP_BATCH = 10;

/**
 * Removes up to `batch` records expired long ago (never the key being claimed: one statement must
 * not change a row twice).
 */
export function sweepOfExpiredKeys(batch: number): string {
  return expirySweep('idempotency_keys', "expires_at <= $9::timestamptz - interval '1 hour' AND NOT (customer_id = $1 AND key = $2)", batch).text;
}

/** Claims the key in `state`, or returns no row when a live record holds it. */
export const claimInsert = (state: 'in_progress' | 'completed', returning: string): string => `
INSERT INTO idempotency_keys AS k (${KEY_COLUMNS}) VALUES ($1, $2, '${state}', $3, $4, $5, $6, $7, $8)
ON CONFLICT (customer_id, key) DO UPDATE SET
  state = EXCLUDED.state, fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, order_id = EXCLUDED.order_id,
  order_created_at = EXCLUDED.order_created_at, lock_expires_at = EXCLUDED.lock_expires_at, expires_at = EXCLUDED.expires_at
WHERE k.expires_at <= $9::timestamptz
RETURNING ${returning}`;
/** Claims, or answers nothing when a live record holds the key; sweeps a few long-expired records. */
const CLAIM = `WITH ${sweepOfExpiredKeys(KEY_SWEEP_BATCH)}${claimInsert('in_progress', '1')}`;

/** The parameters of `claimStatement`, in its order. */
export function claimParameters(claim: IdempotencyClaim, now: Date): unknown[] {
  return [
    claim.customerId,
    claim.key,
    claim.fingerprint,
    claim.owner,
    claim.orderId,
    copyDate(claim.orderCreatedAt),
    copyDate(claim.lockExpiresAt),
    copyDate(claim.expiresAt),
    copyDate(now),
  ];
}

/** The live record and, once completed, its order (the customer's own). */
const HELD = `
SELECT ${KEY_COLUMNS.split(', ').map((column) => `k.${column}`).join(', ')}, to_jsonb(o) AS order_row
  FROM idempotency_keys k
  LEFT JOIN LATERAL (SELECT ${ORDER_COLUMNS} FROM orders
                      WHERE order_id = k.order_id AND customer_id = k.customer_id AND k.state = 'completed') o ON true
 WHERE k.customer_id = $1 AND k.key = $2`;

const HELD_BY = "customer_id = $1 AND key = $2 AND state = 'in_progress' AND owner = $3";

export class PostgresIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly pool: pg.Pool) {}

  claim(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    return databaseOperation(async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const claimed = await this.pool.query(CLAIM, claimParameters(claim, now));
        if (claimed.rowCount === 1) return { kind: 'claimed' };
        const held = await this.pool.query<KeyRow & { order_row: (Omit<OrderRow, 'created_at' | 'updated_at' | 'promised_at'> & { created_at: string; updated_at: string; promised_at: string }) | null }>(HELD, [
          claim.customerId,
          claim.key,
        ]);
        const row = held.rows[0];
        // Released since the insert found it: claim again.
        if (row === undefined) continue;
        const order = row.order_row === null ? null : toOrder({ ...row.order_row, created_at: new Date(row.order_row.created_at), updated_at: new Date(row.order_row.updated_at), promised_at: new Date(row.order_row.promised_at) });
        return { kind: 'held', record: toRecord(row), order };
      }
      throw new DomainError('idempotency_key_in_use', 'A request with this idempotency key is still being processed; retry later.');
    });
  }

  takeOver(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const taken = await this.pool.query(`UPDATE idempotency_keys SET owner = $4, lock_expires_at = $5 WHERE ${HELD_BY}`, [
        ref.customerId,
        ref.key,
        from,
        owner,
        copyDate(lockExpiresAt),
      ]);
      return taken.rowCount === 1;
    });
  }

  complete(ref: IdempotencyKeyRef, owner: string): Promise<boolean> {
    return databaseOperation(async () => {
      const completed = await this.pool.query(`UPDATE idempotency_keys SET state = 'completed' WHERE ${HELD_BY}`, [ref.customerId, ref.key, owner]);
      return completed.rowCount === 1;
    });
  }

  abandon(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query(`UPDATE idempotency_keys SET lock_expires_at = $4 WHERE ${HELD_BY}`, [ref.customerId, ref.key, owner, copyDate(now)]);
    });
  }

  /** Deletes an in-flight record of this holder only: a completed one keeps its replay. */
  release(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query(`DELETE FROM idempotency_keys WHERE ${HELD_BY}`, [ref.customerId, ref.key, owner]);
    });
  }
}

function toRecord(row: KeyRow): IdempotencyRecord {
  return copyIdempotencyRecord({
    customerId: row.customer_id,
    key: row.key,
    state: row.state,
    fingerprint: row.fingerprint,
    owner: row.owner,
    orderId: row.order_id,
    orderCreatedAt: row.order_created_at,
    lockExpiresAt: row.lock_expires_at,
    expiresAt: row.expires_at,
  });
}
