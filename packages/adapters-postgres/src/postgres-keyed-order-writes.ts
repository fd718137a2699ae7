/**
 * A fresh Idempotency-Key's claim, its order and the claim's completion in one statement (one
 * round trip, one transaction): the claim's INSERT … ON CONFLICT of PostgresIdempotencyKeys,
 * written completed, feeds the order's id to the order's INSERT. When a live record holds the key
 * the claim returns no row, the order's id is NULL and the primary key refuses it: the statement
 * writes nothing and the key is `held`. The order row is its own outbox entry (PostgresOrderOutbox).
 */
import type { Order } from '@storefront/domain';
import type { IdempotencyClaim, KeyedOrderWrites } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { claimInsert, claimParameters, KEY_SWEEP_BATCH, sweepOfExpiredKeys } from './postgres-idempotency-keys.js';
import { ORDER_COLUMNS, orderParameters } from './order-mapper.js';
import { retryOnConflict } from './retry.js';
import { namedStatement, queryOf } from './named-statements.js';

const ORDER_COLUMN_COUNT = ORDER_COLUMNS.split(',').length;
if (!ORDER_COLUMNS.startsWith('order_id,')) throw new Error('PLACE_FRESH assumes order_id is the first order column');
const PLACE = `claimed AS (${claimInsert('completed', 'k.order_id')})
INSERT INTO orders (${ORDER_COLUMNS}) VALUES ((SELECT order_id FROM claimed), ${Array.from({ length: ORDER_COLUMN_COUNT - 1 }, (_, i) => `$${i + 10}`).join(', ')})`;
/**
 * The claim's 9 parameters, then the order's after its id (the claim's RETURNING gives the id).
 * Named: it scans no table (the claim meets its key through the primary key), so the plan kept for
 * it fits whatever the tables grow to.
 */
const PLACE_FRESH = namedStatement('place_fresh', `WITH ${PLACE}`);
/** One placement in this many carries the key sweep, for what the claims between would have swept. */
const SWEEP_EVERY = 32;
/**
 * PLACE_FRESH with the key sweep. Unnamed: the sweep reads the key table, and a plan kept from
 * while the table was small would read it whole once it has grown.
 */
const PLACE_FRESH_SWEEPING = `WITH ${sweepOfExpiredKeys(KEY_SWEEP_BATCH * SWEEP_EVERY)},\n${PLACE}`;

export class PostgresKeyedOrderWrites implements KeyedOrderWrites {
  /** Placements written so far: every SWEEP_EVERY-th (the first included) sweeps. */
  private written = 0;

  constructor(private readonly pool: pg.Pool) {}

  placeFresh(claim: IdempotencyClaim, order: Order, now: Date): Promise<'placed' | 'held'> {
    return databaseOperation(async () => {
      if (order.orderId !== claim.orderId) throw new Error(`order ${order.orderId} is not the claim's reserved ${claim.orderId}`);
      try {
        const values = [...claimParameters(claim, now), ...orderParameters(order).slice(1)];
        const query = this.written++ % SWEEP_EVERY === 0 ? { text: PLACE_FRESH_SWEEPING, values } : queryOf(PLACE_FRESH, values);
        await retryOnConflict(() => this.pool.query(query));
        return 'placed';
      } catch (error) {
        const { code, column } = (error ?? {}) as { code?: unknown; column?: unknown };
        if (code === '23502' && column === 'order_id') return 'held';
        throw error;
      }
    });
  }
}
