/** What the webhook delivery store contracts share: the stores under test, lease requests, expected deliveries. */
import type { WebhookDelivery, WebhookDeliveryLog, WebhookDeliveryQueue, WebhookDeliveryUpkeep } from '@storefront/domain';
import type { LeaseRequest, WebhookEvent } from '@storefront/domain/adapter-kit';

/** The three delivery ports of one adapter over the same data (a test enqueues, leases and lists). */
export interface WebhookDeliveryPorts {
  readonly queue: WebhookDeliveryQueue;
  readonly log: WebhookDeliveryLog;
  readonly upkeep: WebhookDeliveryUpkeep;
}

export interface WebhookDeliveryStoresUnderTest {
  /** Over an empty store. */
  readonly store: WebhookDeliveryPorts;
  /** Another instance over the same data (its own connections, as another process has); memory: the same ports. */
  readonly other: WebhookDeliveryPorts;
}

export const LEASE_MS = 30_000;
export const MINUTE_MS = 60_000;
export const HOUR = 3_600_000;

export function leaseAt(now: Date, webhookIds: readonly string[], more: Partial<LeaseRequest> = {}): LeaseRequest {
  return { now, limit: 100, leaseMs: LEASE_MS, webhookIds, ...more };
}

/** What `enqueue` stores for `event` and one endpoint. */
export function pendingDelivery(event: WebhookEvent, webhookId: string, deliveryId: string): WebhookDelivery {
  return { ...event, deliveryId, webhookId, status: 'pending', attempts: 0, nextAttemptAt: event.createdAt };
}

/** Their event ids, in order. */
export function ids(deliveries: readonly WebhookDelivery[]): string[] {
  return deliveries.map((d) => d.eventId);
}
