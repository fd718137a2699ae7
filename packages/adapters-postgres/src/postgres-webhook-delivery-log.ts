/** What an admin reads and retries of the webhook deliveries in PostgreSQL. `retry` is one conditional UPDATE. */
import type { Page, WebhookDelivery, WebhookDeliveryLog } from '@storefront/domain';
import { type DeliveryListRequest, pageOffset, toPage } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { DELIVERY_COLUMNS, toDelivery, type DeliveryRow } from './webhook-mappers.js';

export class PostgresWebhookDeliveryLog implements WebhookDeliveryLog {
  constructor(private readonly pool: pg.Pool) {}

  get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE delivery_id = $1 AND webhook_id = $2`,
        [deliveryId, webhookId],
      );
      const row = result.rows[0];
      return row === undefined ? null : toDelivery(row);
    });
  }

  list(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const status = request.status ?? null;
    const where = 'webhook_id = $1 AND ($2::text IS NULL OR status = $2)';
    return databaseOperation(async () => {
      const [rows, count] = await Promise.all([
        this.pool.query<DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT $3 OFFSET $4`,
          [webhookId, status, request.limit, pageOffset(request)],
        ),
        this.pool.query<{ total: string }>(`SELECT count(*) AS total FROM webhook_deliveries WHERE ${where}`, [webhookId, status]),
      ]);
      return toPage(rows.rows.map(toDelivery), Number(count.rows[0]!.total), request);
    });
  }

  retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, ready_at = $3, delivered_at = NULL, expires_at = NULL
          WHERE delivery_id = $1 AND webhook_id = $2`,
        [deliveryId, webhookId, now],
      );
      return result.rowCount === 1;
    });
  }
}
