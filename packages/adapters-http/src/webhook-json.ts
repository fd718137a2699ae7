/** Webhook endpoints and deliveries → the snake_case JSON of `/api/admin/webhooks` (no secret: it is shown only where it is made). */
import type { WebhookDelivery, WebhookEndpoint } from '@storefront/domain';

export function webhookJson(w: WebhookEndpoint) {
  return {
    webhook_id: w.webhookId,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.enabled,
    // Only while disabled: an enabled endpoint has no reason key.
    ...(w.enabled || w.disabledReason === undefined ? {} : { disabled_reason: w.disabledReason }),
    created_at: w.createdAt.toISOString(),
  };
}

export function webhookDeliveryJson(d: WebhookDelivery) {
  return {
    delivery_id: d.deliveryId,
    event_id: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode ?? null,
    last_error: d.lastError ?? null,
    next_attempt_at: d.status === 'pending' && d.nextAttemptAt !== undefined ? d.nextAttemptAt.toISOString() : null,
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  };
}
