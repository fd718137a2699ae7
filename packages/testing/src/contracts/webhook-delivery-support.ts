/** What the webhook delivery store contracts share: the stores under test, lease requests, expected deliveries. */
import type { LeaseRequest, WebhookDelivery, WebhookDeliveryStore, WebhookEvent } from '@storefront/domain';

export interface WebhookDeliveryStoresUnderTest {
  /** An empty store. */
  readonly store: WebhookDeliveryStore;
  /** Another instance over the same data (its own connections, as another process has); memory: the same store. */
  readonly other: WebhookDeliveryStore;
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
