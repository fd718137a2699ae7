/**
 * The webhook delivery queue in PostgreSQL, shared by every instance: the database does the
 * coordination (the admin's log and the upkeep: postgres-webhook-delivery-log.ts, -upkeep.ts).
 * `lease` is one statement: due pending rows, oldest first, FOR UPDATE SKIP LOCKED, less those a
 * lower pending version of the same endpoint and order holds back, which move on (lease-window.ts).
 * `record` is a conditional UPDATE on the lease token (docs/decisions.md, "Webhook deliveries").
 */
import type { WebhookDeliveryQueue } from '@storefront/domain';
import { type DeliveryOutcome, type LeasedDelivery, type LeaseRequest, newId, type WebhookDeliveryStats, type WebhookEvent } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { databaseOperation } from './database-errors.js';
import { DELIVERY_COLUMNS, toDelivery, toLeased, type DeliveryRow } from './webhook-mappers.js';

// Rows a lease reads beyond what it still wants once it met rows held back, and windows at most.
import { LEASE_HELD_SCAN as HELD_SCAN, LEASE_MAX_WINDOWS as MAX_WINDOWS, leaseWindow } from '@storefront/adapter-support';

const LEASE_SQL = `
WITH scanned AS (
  SELECT candidate.delivery_id, candidate.ready_at, candidate.seq,
         EXISTS (
           SELECT 1 FROM webhook_deliveries earlier
            WHERE earlier.status = 'pending'
              AND earlier.webhook_id = candidate.webhook_id
              AND earlier.order_id = candidate.order_id
              AND earlier.order_version < candidate.order_version) AS held,
         EXISTS (
           SELECT 1 FROM webhook_deliveries earlier
            WHERE earlier.status = 'pending'
              AND earlier.webhook_id = candidate.webhook_id
              AND earlier.order_id = candidate.order_id
              AND earlier.order_version < candidate.order_version
              AND earlier.next_attempt_at <= $1) AS held_soon
    FROM webhook_deliveries candidate
   WHERE candidate.status = 'pending'
     AND candidate.ready_at <= $1
     AND candidate.next_attempt_at <= $1
     AND (candidate.lease_until IS NULL OR candidate.lease_until <= $1)
     AND candidate.webhook_id = ANY($3::text[])
     AND NOT candidate.webhook_id = ANY($4::text[])
   ORDER BY candidate.ready_at, candidate.seq
   LIMIT $6
     FOR UPDATE SKIP LOCKED
), held_back AS (
  UPDATE webhook_deliveries SET ready_at = CASE WHEN scanned.held_soon THEN $8::timestamptz ELSE $7::timestamptz END
    FROM scanned
   WHERE webhook_deliveries.delivery_id = scanned.delivery_id AND scanned.held
), leased AS (
  UPDATE webhook_deliveries
     SET lease_token = gen_random_uuid()::text, lease_until = $2
   WHERE delivery_id IN (SELECT delivery_id FROM scanned WHERE NOT held ORDER BY ready_at, seq LIMIT $5)
  RETURNING ${DELIVERY_COLUMNS}
)
-- One row even when nothing was leased: the count of rows read tells whether to read on.
SELECT leased.*, window_read.count AS scanned
  FROM (SELECT count(*) FROM scanned) AS window_read
  LEFT JOIN leased ON true`;

/**
 * Records an attempt (the lease token must still hold it); when the delivery leaves pending, the
 * later versions of its order it held back are looked at again at their own due time.
 */
const RECORD_SQL = `
WITH recorded AS (
  UPDATE webhook_deliveries
     SET attempts = attempts + 1, last_status_code = $3, last_error = $4, status = $5, next_attempt_at = $6, ready_at = $6,
         delivered_at = $7, expires_at = $8, lease_token = NULL, lease_until = NULL
   WHERE delivery_id = $1 AND lease_token = $2 AND status = 'pending'
  RETURNING webhook_id, order_id, order_version, status
), released AS (
  UPDATE webhook_deliveries later
     SET ready_at = later.next_attempt_at
    FROM recorded
   WHERE recorded.status <> 'pending'
     AND later.status = 'pending'
     AND later.webhook_id = recorded.webhook_id
     AND later.order_id = recorded.order_id
     AND later.order_version > recorded.order_version
     AND later.ready_at > later.next_attempt_at
)
SELECT count(*)::int AS recorded FROM recorded`;

/** The lease's row when it leased nothing: only the count is set. */
type NullRow = { [K in keyof DeliveryRow]: null };

export class PostgresWebhookDeliveryQueue implements WebhookDeliveryQueue {
  constructor(private readonly pool: pg.Pool) {}

  enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void> {
    const endpoints = [...new Set(webhookIds)];
    if (endpoints.length === 0) return Promise.resolve();
    return databaseOperation(async () => {
      await this.pool.query(
        `INSERT INTO webhook_deliveries
           (delivery_id, webhook_id, event_id, type, payload, order_id, order_version, created_at, status, next_attempt_at, ready_at)
         SELECT delivery_id, webhook_id, $3, $4, $5, $6, $7, $8, 'pending', $8, $8
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
    const times = leaseWindow(request);
    if (times === null) return Promise.resolve([]);
    const { now } = request;
    const { limit, leaseUntil, recheckAt, recheckSoonAt } = times;
    return databaseOperation(async () => {
      const leased: DeliveryRow[] = [];
      // The first window is just what is wanted (rows it reads, it locks): wider only once rows held back were met.
      for (let windows = 0, extra = 0; windows < MAX_WINDOWS; windows++, extra = HELD_SCAN) {
        const wanted = limit - leased.length;
        const window = wanted + extra;
        const result = await this.pool.query<(DeliveryRow | NullRow) & { scanned: string }>(LEASE_SQL, [
          now,
          leaseUntil,
          [...request.webhookIds],
          [...(request.excludeWebhookIds ?? [])],
          wanted,
          window,
          recheckAt,
          recheckSoonAt,
        ]);
        const rows = result.rows.filter((row): row is DeliveryRow & { scanned: string } => row.delivery_id !== null);
        leased.push(...rows);
        // Read on only when this window was full of rows it could not lease (held back ones, now moved on).
        if (leased.length >= limit || Number(result.rows[0]?.scanned ?? 0) < window) break;
      }
      // RETURNING keeps no order: put the oldest due first again.
      return leased
        .sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime() || Number(BigInt(a.seq) - BigInt(b.seq)))
        .map(toLeased);
    });
  }

  record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ recorded: number }>(RECORD_SQL, [
        deliveryId,
        leaseToken,
        outcome.statusCode ?? null,
        outcome.kind === 'delivered' ? null : (outcome.error ?? null),
        outcome.kind === 'retry' ? 'pending' : outcome.kind,
        outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
        outcome.kind === 'delivered' ? outcome.at : null,
        outcome.kind === 'retry' ? null : (outcome.keepUntil ?? null),
      ]);
      return result.rows[0]?.recorded === 1;
    });
  }

  stats(): Promise<WebhookDeliveryStats> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ pending: string; oldest: Date | null }>(
        "SELECT count(*) AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      );
      const { pending, oldest } = result.rows[0]!;
      return { pending: Number(pending), ...(oldest === null ? {} : { oldestPendingAt: oldest }) };
    });
  }
}
