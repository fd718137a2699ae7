/**
 * Places taken per slot on PostgreSQL. Taking a place is one short transaction: the holder's row
 * first (`ON CONFLICT DO NOTHING`: an order that holds a place already is done, and takes no
 * second one), then one conditional upsert of the slot's count,
 * `INSERT … ON CONFLICT (slot) DO UPDATE SET taken = taken + 1 WHERE taken < $k`. The upsert locks
 * the slot's row and checks the ceiling on its latest committed count, so concurrent takers of a
 * slot queue on that row and exactly k of them get a place, from any number of instances; a taker
 * that finds the slot full rolls its holder row back.
 */
import type { SlotPlaces } from '@storefront/domain';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { inTransaction } from './transaction.js';

export class PostgresSlotPlaces implements SlotPlaces {
  constructor(private readonly pool: pg.Pool) {}

  take(slot: Date, orderId: string, capacity: number): Promise<boolean> {
    return databaseOperation(() =>
      inTransaction(this.pool, async (client) => {
        const held = await client.query('INSERT INTO slot_holders (slot, order_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [slot, orderId]);
        if (held.rowCount === 0) return true;
        const bumped = await client.query(
          `INSERT INTO slot_places AS p (slot, taken) VALUES ($1, 1)
           ON CONFLICT (slot) DO UPDATE SET taken = p.taken + 1 WHERE p.taken < $2`,
          [slot, capacity],
        );
        if (bumped.rowCount === 1) return true;
        // Full: the holder row goes with the rollback.
        throw FULL;
      }).catch((error: unknown) => {
        if (error === FULL) return false;
        throw error;
      }),
    );
  }

  release(slot: Date, orderId: string): Promise<void> {
    return databaseOperation(async () => {
      // One statement: the count falls only when a holder row was deleted (a second release finds none).
      await this.pool.query(
        `WITH gone AS (DELETE FROM slot_holders WHERE slot = $1 AND order_id = $2 RETURNING slot)
         UPDATE slot_places SET taken = taken - 1 WHERE slot = $1 AND EXISTS (SELECT 1 FROM gone)`,
        [slot, orderId],
      );
    });
  }

  taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ slot: Date; taken: number }>('SELECT slot, taken FROM slot_places WHERE slot >= $1 AND slot < $2', [from, to]);
      return new Map(result.rows.map((row) => [row.slot.getTime(), row.taken]));
    });
  }
}

/** Thrown inside the transaction to roll it back; never leaves `take`. */
const FULL = Symbol('slot full');
