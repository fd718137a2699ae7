/**
 * What the outbox's order events become for webhooks: one WebhookEvent per order event, with an id
 * derived from the order and its version (so that the relay enqueuing it again after a crash is the
 * same event, and receivers de-duplicate on it) and the body fixed once for every endpoint and retry.
 */
import { randomToken } from '../shared/ids.js';
import type { OrderEventData } from '../orders/order-event.js';
import type { WebhookDeliveryType, WebhookEvent, WebhookEventType } from './model.js';

/** The JSON `data` of an order event (the app wires the HTTP shapes: the order as GET shows it, the stream's event). */
export type WebhookPayload = (event: OrderEventData) => unknown;

/**
 * The body every delivery carries: `{"type","timestamp","data"}`. Order ids are `ord_` and base32
 * characters only, so the id is safe in a header as it is.
 */
export function webhookBody(type: WebhookDeliveryType, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** The webhook event of one order event: `evt_<orderId>_<version>`, due when the change happened. */
export function orderWebhookEvent(event: OrderEventData & { readonly type: WebhookEventType }, payload: WebhookPayload): WebhookEvent {
  return {
    eventId: `evt_${event.orderId}_${event.version}`,
    type: event.type,
    payload: webhookBody(event.type, event.at, payload(event)),
    orderId: event.orderId,
    orderVersion: event.version,
    createdAt: event.at,
  };
}

/** A `webhook.test` event for one endpoint (an admin's ask): a fresh id every time. */
export function testWebhookEvent(webhookId: string, now: Date): WebhookEvent {
  return {
    eventId: `evt_test_${randomToken(20)}`,
    type: 'webhook.test',
    payload: webhookBody('webhook.test', now, { webhook_id: webhookId }),
    createdAt: now,
  };
}

/**
 * The fallback `data` when the embedder gives no payload function: the event's own fields in the
 * API's snake_case (the app wires the full HTTP shapes instead).
 */
export const plainWebhookPayload: WebhookPayload = (event) => ({
  order_id: event.orderId,
  version: event.version,
  status: event.status,
  at: event.at.toISOString(),
  ...(event.reason === undefined ? {} : { reason: event.reason }),
});
