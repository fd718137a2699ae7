/** What an admin reads and retries of the webhook deliveries in MongoDB. `retry` is one conditional update. */
import type { Page, WebhookDelivery, WebhookDeliveryLog } from '@storefront/domain';
import { type DeliveryListRequest, pageOffset, toPage } from '@storefront/domain/adapter-kit';
import type { Collection, Filter } from 'mongodb';
import { databaseOperation } from './database-errors.js';
import { toDelivery, type WebhookDeliveryDocument } from './webhook-mappers.js';

export class MongoWebhookDeliveryLog implements WebhookDeliveryLog {
  constructor(private readonly deliveries: Collection<WebhookDeliveryDocument>) {}

  get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return databaseOperation(async () => {
      const document = await this.deliveries.findOne({ _id: deliveryId, webhookId });
      return document === null ? null : toDelivery(document);
    });
  }

  list(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const filter: Filter<WebhookDeliveryDocument> = request.status === undefined ? { webhookId } : { webhookId, status: request.status };
    return databaseOperation(async () => {
      const [documents, total] = await Promise.all([
        this.deliveries.find(filter).sort({ createdAt: -1, _id: -1 }).skip(pageOffset(request)).limit(request.limit).toArray(),
        this.deliveries.countDocuments(filter),
      ]);
      return toPage(documents.map(toDelivery), total, request);
    });
  }

  retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.deliveries.updateOne(
        { _id: deliveryId, webhookId },
        { $set: { status: 'pending', nextAttemptAt: new Date(now), readyAt: new Date(now) }, $unset: { deliveredAt: '', expiresAt: '' } },
      );
      return result.matchedCount === 1;
    });
  }
}
