/** Retention, removed endpoints and erased payloads of the webhook deliveries in PostgreSQL. */
import type { WebhookDeliveryUpkeep } from '@storefront/domain';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';

export class PostgresWebhookDeliveryUpkeep implements WebhookDeliveryUpkeep {
  constructor(private readonly pool: pg.Pool) {}

  rewritePayload(eventId: string, payload: string): Promise<void> {
    return databaseOperation(async () => {
      // Per endpoint, so that the unique (webhook_id, event_id) index finds the rows (no index leads
      // with event_id): the endpoints are read from that index too, one probe each (a loose index scan).
      await this.pool.query(
        `WITH RECURSIVE endpoints AS (
           (SELECT webhook_id FROM webhook_deliveries ORDER BY webhook_id LIMIT 1)
           UNION ALL
           SELECT (SELECT d.webhook_id FROM webhook_deliveries d WHERE d.webhook_id > e.webhook_id ORDER BY d.webhook_id LIMIT 1)
             FROM endpoints e WHERE e.webhook_id IS NOT NULL)
         UPDATE webhook_deliveries SET payload = $2
          WHERE webhook_id IN (SELECT webhook_id FROM endpoints WHERE webhook_id IS NOT NULL) AND event_id = $1`,
        [eventId, payload],
      );
    });
  }

  removeEndpoint(webhookId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
    });
  }

  removeExpired(now: Date, limit: number): Promise<number> {
    return databaseOperation(async () => {
      const result = await this.pool.query(
        `DELETE FROM webhook_deliveries WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
            WHERE expires_at <= $1 AND status <> 'pending' ORDER BY expires_at LIMIT $2)`,
        [now, Math.max(0, Math.floor(limit))],
      );
      return result.rowCount ?? 0;
    });
  }

  endpointsWithDeliveries(): Promise<string[]> {
    return databaseOperation(async () => {
      // A skip scan over webhook_deliveries_by_endpoint: one index probe per endpoint, not a read of every row.
      const result = await this.pool.query<{ webhook_id: string }>(
        `WITH RECURSIVE endpoint AS (
           (SELECT webhook_id FROM webhook_deliveries ORDER BY webhook_id LIMIT 1)
           UNION ALL
           SELECT (SELECT next.webhook_id FROM webhook_deliveries next WHERE next.webhook_id > endpoint.webhook_id ORDER BY next.webhook_id LIMIT 1)
             FROM endpoint WHERE endpoint.webhook_id IS NOT NULL)
         SELECT webhook_id FROM endpoint WHERE webhook_id IS NOT NULL`,
      );
      return result.rows.map((row) => row.webhook_id);
    });
  }
}
