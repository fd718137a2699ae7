/**
 * Outgoing webhooks (DECISIONS "Webhooks (outgoing)", Standard Webhooks 1.0): endpoints an admin
 * registers, and one delivery per (event, endpoint), kept in the store until it is delivered or
 * has failed for good. These are the shapes the stores keep; the rules that move them live in the
 * use cases and the dispatcher.
 */

/** Event types an endpoint can subscribe to (the default is all of them). */
export const WEBHOOK_EVENT_TYPES = ['order.placed', 'order.status', 'order.refunded'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What a delivery can carry: a subscribed type, or the test event an admin asks for. */
export type WebhookDeliveryType = WebhookEventType | 'webhook.test';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A signing secret: `whsec_` + base64 of 32 random bytes. */
export interface WebhookSecret {
  readonly secret: string;
  readonly createdAt: Date;
  /** Set on the previous secret at a rotation: it still signs until then (24 h overlap). */
  readonly expiresAt?: Date;
}

export interface WebhookEndpoint {
  /** `whk_` + 20 base32 characters. */
  readonly webhookId: string;
  readonly url: string;
  /** The event types delivered to it, in WEBHOOK_EVENT_TYPES order, never empty. */
  readonly events: readonly WebhookEventType[];
  readonly description: string;
  readonly enabled: boolean;
  /** Why it was disabled (`gone`: a 410; `failing`: every delivery failed for 24 h; `admin`). */
  readonly disabledReason?: string;
  /** Newest first; the ones after the first carry `expiresAt` and sign until then. */
  readonly secrets: readonly WebhookSecret[];
  /** Since when every attempt to it failed (cleared by a success): the 24 h disabling rule. */
  readonly failingSince?: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the outbox turns into deliveries: one event, the same bytes to every endpoint and on every retry. */
export interface WebhookEvent {
  /** The `webhook-id` header: stable for the event (receivers de-duplicate on it). */
  readonly eventId: string;
  readonly type: WebhookDeliveryType;
  /** The whole JSON body `{"type","timestamp","data"}`, fixed when the event is made. */
  readonly payload: string;
  /** Order events: the order and its version, which order deliveries per (endpoint, order). */
  readonly orderId?: string;
  readonly orderVersion?: number;
  readonly createdAt: Date;
}

export interface WebhookDelivery extends WebhookEvent {
  /** `wdl_` + 20 base32 characters. */
  readonly deliveryId: string;
  readonly webhookId: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode?: number;
  readonly lastError?: string;
  /** When it is due (pending only). */
  readonly nextAttemptAt?: Date;
  readonly deliveredAt?: Date;
}

/** A delivery handed to one worker until `leaseUntil`; its outcome is recorded with `leaseToken`. */
export interface LeasedDelivery extends WebhookDelivery {
  readonly leaseToken: string;
  readonly leaseUntil: Date;
}

/** What one attempt came to, as the dispatcher records it. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered'; readonly at: Date; readonly statusCode: number; readonly keepUntil?: Date }
  /** Tried again at `nextAttemptAt`. */
  | { readonly kind: 'retry'; readonly at: Date; readonly nextAttemptAt: Date; readonly statusCode?: number; readonly error?: string }
  /** No attempt left. */
  | { readonly kind: 'failed'; readonly at: Date; readonly statusCode?: number; readonly error?: string; readonly keepUntil?: Date };
/**
 * `keepUntil` (delivered and failed): the store removes the finished delivery after it
 * (`removeExpired`, or the database's own expiry). Absent: kept until its endpoint is removed.
 */

/** Waits after attempts 1, 2, …: then the delivery is failed (DECISIONS). ±10 % jitter is added. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
export const WEBHOOK_RETRY_JITTER = 0.1;
/** Overlap of the old secret after a rotation. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
/** How long a delivered or failed delivery is kept (WEBHOOK_RETENTION_DAYS, default 30). */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 3_600_000;
/** An endpoint whose every delivery failed for this long is disabled. */
export const WEBHOOK_FAILING_DISABLE_MS = 24 * 3_600_000;

/**
 * The bounds of what an admin registers (ManageWebhooks checks them; packages/adapters-http/openapi.yaml is held to
 * them by a test): the URL's length in characters, the description's, and how many secrets sign
 * at once (the current one and those still in their overlap after rotations).
 */
export const WEBHOOK_LIMITS = {
  urlMaxLength: 2048,
  descriptionMaxLength: 500,
  secretsMax: 3,
} as const;
