/**
 * The feed from the outbox to webhooks: the relay hands it each batch of order events before it
 * marks them published, and it enqueues one delivery per event for every enabled endpoint
 * subscribed to the event's type. A crash between the two enqueues the batch again, which the
 * store ignores (idempotent per event id and endpoint; the ids derive from order and version).
 */
import { isKitchenEvent, type OrderEventData } from '../orders/order-event.js';
import type { WebhookEventType } from './model.js';
import type { EndpointDirectory } from './endpoint-directory.js';
import type { WebhookDeliveryQueue } from './ports.js';
import { orderWebhookEvent, type WebhookPayload } from './webhook-events.js';

export class WebhookFeed {
  constructor(
    private readonly directory: EndpointDirectory,
    private readonly deliveries: Pick<WebhookDeliveryQueue, 'enqueue'>,
    private readonly payload: WebhookPayload,
    /** Told after deliveries were enqueued (the dispatcher of this instance wakes). */
    private readonly enqueued: () => void = () => undefined,
  ) {}

  /** Enqueues the events' deliveries; rejects when the store does (the relay then retries the batch). */
  async enqueue(events: readonly OrderEventData[]): Promise<void> {
    if (events.length === 0) return;
    const endpoints = [...(await this.directory.all()).values()].filter((endpoint) => endpoint.enabled);
    if (endpoints.length === 0) return;
    let any = false;
    // One order's events one after the other, in version order: a later version stored before an
    // earlier one could be leased while nothing holds it back yet, and arrive first. Orders in parallel.
    await Promise.all(
      [...byOrder(events).values()].map(async (ofOrder) => {
        for (const event of ofOrder) {
          // Nothing before the order is paid, and no settlement of a refund (its asking was sent).
          if (!isKitchenEvent(event) || event.type === 'order.payment') continue;
          const type: WebhookEventType = event.type;
          const webhookIds = endpoints.filter((endpoint) => endpoint.events.includes(type)).map((endpoint) => endpoint.webhookId);
          if (webhookIds.length === 0) continue;
          any = true;
          await this.deliveries.enqueue(orderWebhookEvent({ ...event, type }, this.payload), webhookIds);
        }
      }),
    );
    if (any) this.enqueued();
  }
}

/** The events by order, each order's in the order given (the relay gives them in version order). */
function byOrder(events: readonly OrderEventData[]): Map<string, OrderEventData[]> {
  const orders = new Map<string, OrderEventData[]>();
  for (const event of events) {
    const list = orders.get(event.orderId);
    if (list === undefined) orders.set(event.orderId, [event]);
    else list.push(event);
  }
  return orders;
}
