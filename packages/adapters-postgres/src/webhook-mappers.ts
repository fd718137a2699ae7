/** Rows of webhook_endpoints and webhook_deliveries to the domain's shapes (optional fields absent, not null). */
import type { WebhookDelivery, WebhookEndpoint } from '@storefront/domain';
import type { LeasedDelivery, WebhookDeliveryStatus, WebhookDeliveryType, WebhookEventType, WebhookSecret } from '@storefront/domain/adapter-kit';

export const ENDPOINT_COLUMNS =
  'webhook_id, url, events, description, enabled, disabled_reason, secrets, failing_since, created_at, updated_at';

export interface EndpointRow {
  webhook_id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  secrets: StoredSecret[];
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A secret in the jsonb array: times as ISO strings. */
interface StoredSecret {
  secret: string;
  createdAt: string;
  expiresAt?: string;
}

export function secretsToJson(secrets: readonly WebhookSecret[]): string {
  return JSON.stringify(
    secrets.map(({ secret, createdAt, expiresAt }): StoredSecret => ({
      secret,
      createdAt: createdAt.toISOString(),
      ...(expiresAt === undefined ? {} : { expiresAt: expiresAt.toISOString() }),
    })),
  );
}

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    webhookId: row.webhook_id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    enabled: row.enabled,
    ...(row.disabled_reason === null ? {} : { disabledReason: row.disabled_reason }),
    secrets: row.secrets.map(({ secret, createdAt, expiresAt }) => ({
      secret,
      createdAt: new Date(createdAt),
      ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
    })),
    ...(row.failing_since === null ? {} : { failingSince: row.failing_since }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const DELIVERY_COLUMNS =
  'delivery_id, webhook_id, event_id, type, payload, order_id, order_version, created_at, status, attempts, ' +
  'last_status_code, last_error, next_attempt_at, delivered_at, lease_token, lease_until, seq';

export interface DeliveryRow {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  payload: string;
  order_id: string | null;
  order_version: number | null;
  created_at: Date;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  lease_token: string | null;
  lease_until: Date | null;
  /** bigint: node-postgres hands it over as a string. */
  seq: string;
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    eventId: row.event_id,
    type: row.type as WebhookDeliveryType,
    payload: row.payload,
    ...(row.order_id === null ? {} : { orderId: row.order_id }),
    ...(row.order_version === null ? {} : { orderVersion: row.order_version }),
    createdAt: row.created_at,
    deliveryId: row.delivery_id,
    webhookId: row.webhook_id,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    ...(row.last_status_code === null ? {} : { lastStatusCode: row.last_status_code }),
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.next_attempt_at === null ? {} : { nextAttemptAt: row.next_attempt_at }),
    ...(row.delivered_at === null ? {} : { deliveredAt: row.delivered_at }),
  };
}

export function toLeased(row: DeliveryRow): LeasedDelivery {
  return { ...toDelivery(row), leaseToken: row.lease_token!, leaseUntil: row.lease_until! };
}
