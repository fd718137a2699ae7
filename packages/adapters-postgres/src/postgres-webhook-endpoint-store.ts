/**
 * Webhook endpoints in PostgreSQL. `update` is one UPDATE of the columns given; `markFailing` is
 * one conditional write (COALESCE keeps a time already set), so racing instances agree on the
 * first failure's time.
 */
import type { WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointStore } from '@storefront/domain';
import type pg from 'pg';
import { storeOperation } from './store-errors.js';
import { ENDPOINT_COLUMNS, secretsToJson, toEndpoint, type EndpointRow } from './webhook-mappers.js';

export class PostgresWebhookEndpointStore implements WebhookEndpointStore {
  constructor(private readonly pool: pg.Pool) {}

  create(endpoint: WebhookEndpoint): Promise<void> {
    return storeOperation(async () => {
      await this.pool.query(
        `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          endpoint.webhookId,
          endpoint.url,
          [...endpoint.events],
          endpoint.description,
          endpoint.enabled,
          endpoint.disabledReason ?? null,
          secretsToJson(endpoint.secrets),
          endpoint.failingSince ?? null,
          endpoint.createdAt,
          endpoint.updatedAt,
        ],
      );
    });
  }

  get(webhookId: string): Promise<WebhookEndpoint | null> {
    return storeOperation(async () => {
      const result = await this.pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE webhook_id = $1`, [webhookId]);
      const row = result.rows[0];
      return row === undefined ? null : toEndpoint(row);
    });
  }

  list(): Promise<WebhookEndpoint[]> {
    return storeOperation(async () => {
      const result = await this.pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, webhook_id`);
      return result.rows.map(toEndpoint);
    });
  }

  update(webhookId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    const columns: Array<readonly [string, unknown]> = [['updated_at', changes.updatedAt]];
    if (changes.url !== undefined) columns.push(['url', changes.url]);
    if (changes.events !== undefined) columns.push(['events', [...changes.events]]);
    if (changes.description !== undefined) columns.push(['description', changes.description]);
    if (changes.enabled !== undefined) columns.push(['enabled', changes.enabled]);
    if (changes.disabledReason !== undefined) columns.push(['disabled_reason', changes.disabledReason]);
    if (changes.failingSince !== undefined) columns.push(['failing_since', changes.failingSince]);
    if (changes.secrets !== undefined) columns.push(['secrets', secretsToJson(changes.secrets)]);
    const set = columns.map(([column], i) => `${column} = $${i + 2}`).join(', ');
    return this.returning(`UPDATE webhook_endpoints SET ${set} WHERE webhook_id = $1`, [webhookId, ...columns.map(([, value]) => value)]);
  }

  markFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    return this.returning('UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE webhook_id = $1', [webhookId, at]);
  }

  remove(webhookId: string): Promise<boolean> {
    return storeOperation(async () => {
      const result = await this.pool.query('DELETE FROM webhook_endpoints WHERE webhook_id = $1', [webhookId]);
      return result.rowCount === 1;
    });
  }

  /** Runs an UPDATE and answers the endpoint it changed, or null. */
  private returning(sql: string, values: unknown[]): Promise<WebhookEndpoint | null> {
    return storeOperation(async () => {
      const result = await this.pool.query<EndpointRow>(`${sql} RETURNING ${ENDPOINT_COLUMNS}`, values);
      const row = result.rows[0];
      return row === undefined ? null : toEndpoint(row);
    });
  }
}
