/** Retention, removed endpoints and erased payloads of the webhook deliveries in MongoDB. */
import type { WebhookDeliveryUpkeep } from '@storefront/domain';
import type { Collection } from 'mongodb';
import { INDEXES } from './collections.js';
import { databaseOperation } from './database-errors.js';
import type { WebhookDeliveryDocument } from './webhook-mappers.js';

export class MongoWebhookDeliveryUpkeep implements WebhookDeliveryUpkeep {
  constructor(private readonly deliveries: Collection<WebhookDeliveryDocument>) {}

  rewritePayload(eventId: string, payload: string): Promise<void> {
    return databaseOperation(async () => {
      // Per endpoint, so that the unique (webhookId, eventId) index finds the documents (distinct reads its prefix).
      const webhookIds = await this.deliveries.distinct('webhookId');
      await this.deliveries.updateMany({ webhookId: { $in: webhookIds }, eventId }, { $set: { payload } });
    });
  }

  removeEndpoint(webhookId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.deliveries.deleteMany({ webhookId });
    });
  }

  removeExpired(now: Date, limit: number): Promise<number> {
    // The TTL monitor does this too, about once a minute; this bounded delete makes it happen at a known time.
    const expired = { expiresAt: { $lte: now }, status: { $ne: 'pending' as const } };
    return databaseOperation(async () => {
      const batch = await this.deliveries
        .find(expired, { projection: { _id: 1 }, sort: { expiresAt: 1 }, limit: Math.max(1, Math.floor(limit)), hint: INDEXES.webhookDeliveriesExpiry })
        .toArray();
      if (batch.length === 0) return 0;
      const result = await this.deliveries.deleteMany({ _id: { $in: batch.map((d) => d._id) }, ...expired });
      return result.deletedCount;
    });
  }

  endpointsWithDeliveries(): Promise<string[]> {
    // distinct on the leading field of an index is a DISTINCT_SCAN: one probe per endpoint.
    return databaseOperation(async () => (await this.deliveries.distinct('webhookId')) as string[]);
  }
}
