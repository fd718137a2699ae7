/** What an admin reads and retries of a memory webhook delivery store (its rows: webhook-delivery-rows.ts). */
import type { Page, WebhookDelivery, WebhookDeliveryLog } from '@storefront/domain';
import { type DeliveryListRequest, pageOffset, toPage } from '@storefront/domain/adapter-kit';
import { toDelivery } from './webhook-delivery-row.js';
import type { WebhookDeliveryRows } from './webhook-delivery-rows.js';

export class InMemoryWebhookDeliveryLog implements WebhookDeliveryLog {
  constructor(private readonly store: WebhookDeliveryRows) {}

  async get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const row = this.store.rows.get(deliveryId);
    return row === undefined || row.webhookId !== webhookId ? null : toDelivery(row);
  }

  async list(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const rows = this.store.endpoints.get(webhookId)?.rows ?? [];
    const matching = request.status === undefined ? rows : rows.filter((row) => row.status === request.status);
    const end = matching.length - pageOffset(request);
    const page = end <= 0 ? [] : matching.slice(Math.max(0, end - request.limit), end).reverse();
    return toPage(page.map(toDelivery), matching.length, request);
  }

  async retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    const row = this.store.rows.get(deliveryId);
    if (row === undefined || row.webhookId !== webhookId) return false;
    const deliveries = this.store.endpoint(webhookId);
    row.nextAttemptAt = now.getTime();
    if (row.status === 'pending') {
      this.store.schedule(deliveries, row);
      return true;
    }
    row.status = 'pending';
    row.deliveredAt = undefined;
    row.expiresAt = undefined;
    this.store.becomePending(deliveries, row);
    return true;
  }
}
