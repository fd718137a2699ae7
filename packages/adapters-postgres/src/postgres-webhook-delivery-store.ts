/**
 * Webhook deliveries in PostgreSQL, shared by every instance: the database does the coordination.
 *
 * `lease` is one statement. Its inner SELECT picks the due, unleased (or lease run out) pending
 * rows of the endpoints asked for, oldest due first, that no pending row of the same endpoint and
 * order with a lower version holds back, and locks them FOR UPDATE SKIP LOCKED: a row another
 * worker's lease statement is locking at that moment is skipped, not waited for and not handed
 * out twice. A row whose lease that other worker committed after this statement's snapshot is
 * re-checked by PostgreSQL on the row's newest version when locking it (READ COMMITTED), where
 * its lease now holds, so it is left out too. The outer UPDATE writes a new token per row.
 *
 * `record` and `retry` are single conditional UPDATEs: a record carries the lease token, and a
 * worker whose lease was taken over matches no row.
 */
import type {
  DeliveryListRequest,
  DeliveryOutcome,
  LeasedDelivery,
  LeaseRequest,
  Page,
  WebhookDelivery,
  WebhookDeliveryStats,
  WebhookDeliveryStore,
  WebhookEvent,
} from '@storefront/domain';
import { newId, pageOffset, toPage } from '@storefront/domain';
import type pg from 'pg';
import { storeOperation } from './store-errors.js';
import { DELIVERY_COLUMNS, toDelivery, toLeased, type DeliveryRow } from './webhook-mappers.js';

const LEASE_SQL = `
UPDATE webhook_deliveries
   SET lease_token = gen_random_uuid()::text, lease_until = $2
 WHERE delivery_id IN (
   SELECT candidate.delivery_id
     FROM webhook_deliveries candidate
    WHERE candidate.status = 'pending'
      AND candidate.next_attempt_at <= $1
      AND (candidate.lease_until IS NULL OR candidate.lease_until <= $1)
      AND candidate.webhook_id = ANY($3::text[])
      AND NOT candidate.webhook_id = ANY($4::text[])
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries earlier
         WHERE earlier.status = 'pending'
           AND earlier.webhook_id = candidate.webhook_id
           AND earlier.order_id = candidate.order_id
           AND earlier.order_version < candidate.order_version)
    ORDER BY candidate.next_attempt_at, candidate.seq
    LIMIT $5
      FOR UPDATE SKIP LOCKED)
RETURNING ${DELIVERY_COLUMNS}`;

export class PostgresWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly pool: pg.Pool) {}

  enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void> {
    const endpoints = [...new Set(webhookIds)];
    if (endpoints.length === 0) return Promise.resolve();
    return storeOperation(async () => {
      await this.pool.query(
        `INSERT INTO webhook_deliveries
           (delivery_id, webhook_id, event_id, type, payload, order_id, order_version, created_at, status, next_attempt_at)
         SELECT delivery_id, webhook_id, $3, $4, $5, $6, $7, $8, 'pending', $8
           FROM unnest($1::text[], $2::text[]) AS endpoint (delivery_id, webhook_id)
         ORDER BY webhook_id
             ON CONFLICT (webhook_id, event_id) DO NOTHING`,
        [
          endpoints.map(() => newId('wdl')),
          endpoints,
          event.eventId,
          event.type,
          event.payload,
          event.orderId ?? null,
          event.orderVersion ?? null,
          event.createdAt,
        ],
      );
    });
  }

  lease(request: LeaseRequest): Promise<LeasedDelivery[]> {
    const limit = Math.floor(request.limit);
    if (!(limit >= 1) || request.webhookIds.length === 0) return Promise.resolve([]);
    const leaseUntil = new Date(request.now.getTime() + Math.max(1, request.leaseMs));
    return storeOperation(async () => {
      const result = await this.pool.query<DeliveryRow>(LEASE_SQL, [
        request.now,
        leaseUntil,
        [...request.webhookIds],
        [...(request.excludeWebhookIds ?? [])],
        limit,
      ]);
      // RETURNING keeps no order: put the oldest due first again.
      return result.rows
        .sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime() || Number(BigInt(a.seq) - BigInt(b.seq)))
        .map(toLeased);
    });
  }

  record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    return storeOperation(async () => {
      const result = await this.pool.query(
        `UPDATE webhook_deliveries
            SET attempts = attempts + 1, last_status_code = $3, last_error = $4, status = $5, next_attempt_at = $6,
                delivered_at = $7, lease_token = NULL, lease_until = NULL
          WHERE delivery_id = $1 AND lease_token = $2 AND status = 'pending'`,
        [
          deliveryId,
          leaseToken,
          outcome.statusCode ?? null,
          outcome.kind === 'delivered' ? null : (outcome.error ?? null),
          outcome.kind === 'retry' ? 'pending' : outcome.kind,
          outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
          outcome.kind === 'delivered' ? outcome.at : null,
        ],
      );
      return result.rowCount === 1;
    });
  }

  get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return storeOperation(async () => {
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
    return storeOperation(async () => {
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
    return storeOperation(async () => {
      const result = await this.pool.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, delivered_at = NULL
          WHERE delivery_id = $1 AND webhook_id = $2`,
        [deliveryId, webhookId, now],
      );
      return result.rowCount === 1;
    });
  }

  removeEndpoint(webhookId: string): Promise<void> {
    return storeOperation(async () => {
      await this.pool.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
    });
  }

  stats(): Promise<WebhookDeliveryStats> {
    return storeOperation(async () => {
      const result = await this.pool.query<{ pending: string; oldest: Date | null }>(
        "SELECT count(*) AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      );
      const { pending, oldest } = result.rows[0]!;
      return { pending: Number(pending), ...(oldest === null ? {} : { oldestPendingAt: oldest }) };
    });
  }
}
