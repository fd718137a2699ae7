/** Retention, removed endpoints and erased payloads of a memory webhook delivery store (its rows: webhook-delivery-rows.ts). */
import type { WebhookDeliveryUpkeep } from '@storefront/domain';
import type { DeliveryRow } from './webhook-delivery-row.js';
import type { WebhookDeliveryRows } from './webhook-delivery-rows.js';

export class InMemoryWebhookDeliveryUpkeep implements WebhookDeliveryUpkeep {
  constructor(private readonly store: WebhookDeliveryRows) {}

  async rewritePayload(eventId: string, payload: string): Promise<void> {
    for (const deliveries of this.store.endpoints.values()) {
      const row = deliveries.byEvent.get(eventId);
      if (row !== undefined) row.event = { ...row.event, payload };
    }
  }

  async removeEndpoint(webhookId: string): Promise<void> {
    const deliveries = this.store.endpoints.get(webhookId);
    if (deliveries === undefined) return;
    for (const row of deliveries.rows) {
      if (row.status === 'pending') this.store.pendingCount -= 1;
      row.removed = true;
      this.store.rows.delete(row.deliveryId);
    }
    this.store.endpoints.delete(webhookId);
  }

  async removeExpired(now: Date, limit: number): Promise<number> {
    const gone = new Set<DeliveryRow>();
    for (let top = this.store.expiring.peek(); top !== undefined && top.at <= now.getTime() && gone.size < limit; top = this.store.expiring.peek()) {
      this.store.expiring.pop();
      const { row } = top;
      if (row.removed || row.status === 'pending' || row.expiresAt !== top.at) continue;
      row.removed = true;
      this.store.rows.delete(row.deliveryId);
      gone.add(row);
    }
    for (const webhookId of new Set([...gone].map((row) => row.webhookId))) {
      const deliveries = this.store.endpoints.get(webhookId)!;
      // Compacted in place, keeping the order.
      let kept = 0;
      for (const row of deliveries.rows) {
        if (gone.has(row)) deliveries.byEvent.delete(row.event.eventId);
        else deliveries.rows[kept++] = row;
      }
      deliveries.rows.length = kept;
      if (kept === 0) this.store.endpoints.delete(webhookId);
    }
    return gone.size;
  }

  async endpointsWithDeliveries(): Promise<string[]> {
    return [...this.store.endpoints.keys()];
  }
}
