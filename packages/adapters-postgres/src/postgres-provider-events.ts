/**
 * Processed provider events on PostgreSQL (table provider_events, migration 9). A claim is one
 * upsert: `INSERT … ON CONFLICT DO UPDATE … WHERE` the row is unfinished and its lease has passed.
 * On a conflict the upsert locks the row and checks the WHERE on its latest committed version, so
 * of concurrent claimers, from any number of instances, exactly one gets a row back.
 */
import { PROVIDER_EVENT_LEASE_MS, type ProviderEvents } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';

export class PostgresProviderEvents implements ProviderEvents {
  constructor(private readonly pool: pg.Pool) {}

  claim(provider: string, eventId: string, receivedAt: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query(
        `INSERT INTO provider_events AS e (provider, event_id, received_at, lease_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (provider, event_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
         WHERE e.completed_at IS NULL AND e.lease_until <= EXCLUDED.received_at`,
        [provider, eventId, receivedAt, new Date(receivedAt.getTime() + PROVIDER_EVENT_LEASE_MS)],
      );
      return result.rowCount === 1;
    });
  }

  complete(provider: string, eventId: string, completedAt: Date): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query(
        `INSERT INTO provider_events AS e (provider, event_id, received_at, lease_until, completed_at) VALUES ($1, $2, $3, $3, $3)
         ON CONFLICT (provider, event_id) DO UPDATE SET completed_at = EXCLUDED.completed_at WHERE e.completed_at IS NULL`,
        [provider, eventId, completedAt],
      );
    });
  }

  release(provider: string, eventId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query('DELETE FROM provider_events WHERE provider = $1 AND event_id = $2 AND completed_at IS NULL', [provider, eventId]);
    });
  }

  isCompleted(provider: string, eventId: string): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query('SELECT 1 FROM provider_events WHERE provider = $1 AND event_id = $2 AND completed_at IS NOT NULL', [provider, eventId]);
      return result.rowCount === 1;
    });
  }

  removeBefore(before: Date, limit: number): Promise<number> {
    return databaseOperation(async () => {
      const result = await this.pool.query(
        `DELETE FROM provider_events WHERE (provider, event_id) IN (
           SELECT provider, event_id FROM provider_events
            WHERE completed_at IS NOT NULL AND completed_at < $1 ORDER BY completed_at LIMIT $2)`,
        [before, Math.max(0, Math.floor(limit))],
      );
      return result.rowCount ?? 0;
    });
  }
}
