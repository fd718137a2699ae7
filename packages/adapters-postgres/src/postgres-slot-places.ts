/**
 * Places taken per slot on PostgreSQL. Taking is one short transaction: the holder's row first (`ON
 * CONFLICT DO UPDATE` renewing a pending lease; `RETURNING (xmax = 0)` tells an order that holds a
 * place already), then `INSERT … ON CONFLICT (slot) DO UPDATE SET taken = taken + 1 WHERE taken <
 * $k`, which locks the slot's row, so exactly k takers win from any number of instances; one that
 * finds it full rolls back. Giving back lowers the count only when it deleted a holder row.
 */
import type { SlotPlaces } from '@storefront/domain';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { inTransaction } from './transaction.js';

export class PostgresSlotPlaces implements SlotPlaces {
  constructor(private readonly pool: pg.Pool) {}

  take(slot: Date, orderId: string, capacity: number, heldUntil: Date): Promise<boolean> {
    return databaseOperation(() =>
      inTransaction(this.pool, async (client) => {
        const held = await client.query<{ fresh: boolean }>(
          `INSERT INTO slot_holders AS h (slot, order_id, held_until) VALUES ($1, $2, $3)
           ON CONFLICT (slot, order_id) DO UPDATE SET held_until = CASE WHEN h.held_until IS NULL THEN NULL ELSE EXCLUDED.held_until END
           RETURNING (xmax = 0) AS fresh`,
          [slot, orderId, heldUntil],
        );
        if (held.rows[0]?.fresh !== true) return true;
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

  confirm(slot: Date, orderId: string): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query('UPDATE slot_holders SET held_until = NULL WHERE slot = $1 AND order_id = $2', [slot, orderId]);
      return result.rowCount === 1;
    });
  }

  release(slot: Date, orderId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.giveBack(slot, orderId, null);
    });
  }

  lapsed(from: Date, to: Date, now: Date): Promise<readonly { slot: Date; orderId: string }[]> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ slot: Date; order_id: string }>(
        'SELECT slot, order_id FROM slot_holders WHERE slot >= $1 AND slot < $2 AND held_until IS NOT NULL AND held_until <= $3',
        [from, to, now],
      );
      return result.rows.map((row) => ({ slot: row.slot, orderId: row.order_id }));
    });
  }

  evict(slot: Date, orderId: string, now: Date): Promise<boolean> {
    return databaseOperation(() => this.giveBack(slot, orderId, now));
  }

  taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ slot: Date; taken: number }>('SELECT slot, taken FROM slot_places WHERE slot >= $1 AND slot < $2', [from, to]);
      return new Map(result.rows.map((row) => [row.slot.getTime(), row.taken]));
    });
  }

  /**
   * One statement: the count falls only when a holder row was deleted (a second release finds
   * none). With `lapsedBy`, only a pending row whose lease ended by then is deleted: a renewal or
   * a confirmation that commits first keeps it (the DELETE re-checks the row it waited for).
   */
  private async giveBack(slot: Date, orderId: string, lapsedBy: Date | null): Promise<boolean> {
    const result = await this.pool.query(
      `WITH gone AS (
         DELETE FROM slot_holders WHERE slot = $1 AND order_id = $2
           AND ($3::timestamptz IS NULL OR (held_until IS NOT NULL AND held_until <= $3))
         RETURNING slot)
       UPDATE slot_places SET taken = taken - 1 WHERE slot = $1 AND EXISTS (SELECT 1 FROM gone)`,
      [slot, orderId, lapsedBy],
    );
    return result.rowCount === 1;
  }
}

/** Thrown inside the transaction to roll it back; never leaves `take`. */
const FULL = Symbol('slot full');
