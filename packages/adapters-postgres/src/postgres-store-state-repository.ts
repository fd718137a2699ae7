/**
 * The kitchen's pause, shared by every instance: one row of store_state. A database that never had
 * it set takes orders (DEFAULT_STORE_STATE). Each instance reads it at most once a second (StoreGate).
 */
import type { StoreState, StoreStateRepository } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';

export class PostgresStoreStateRepository implements StoreStateRepository {
  constructor(private readonly pool: pg.Pool) {}

  get(): Promise<StoreState> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ accepting_orders: boolean }>('SELECT accepting_orders FROM store_state');
      const row = result.rows[0];
      return row === undefined ? { ...DEFAULT_STORE_STATE } : { acceptingOrders: row.accepting_orders };
    });
  }

  setAcceptingOrders(acceptingOrders: boolean): Promise<StoreState> {
    return databaseOperation(async () => {
      // An upsert on the one row: two first writers racing cannot both insert.
      const result = await this.pool.query<{ accepting_orders: boolean }>(
        `INSERT INTO store_state (accepting_orders, updated_at) VALUES ($1, now())
         ON CONFLICT (singleton) DO UPDATE SET accepting_orders = EXCLUDED.accepting_orders, updated_at = EXCLUDED.updated_at
         RETURNING accepting_orders`,
        [acceptingOrders],
      );
      return { acceptingOrders: result.rows[0]?.accepting_orders ?? acceptingOrders };
    });
  }
}
