/**
 * Webhook endpoints in MongoDB. `update` is one findOneAndUpdate ($set the fields given, $unset
 * the ones cleared); `markFailing` is one pipeline update that keeps a failing time already set
 * ($ifNull), so that racing instances agree on the first failure's time: the server applies the
 * updates of one document one after the other.
 */
import type { WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointStore } from '@storefront/domain';
import type { Collection, UpdateFilter } from 'mongodb';
import { storeOperation } from './store-errors.js';
import { copySecrets, toEndpoint, toEndpointDocument, type WebhookEndpointDocument } from './webhook-mappers.js';

/** `changes` as one update document. */
function toUpdate(changes: WebhookEndpointChanges): UpdateFilter<WebhookEndpointDocument> {
  const set: Partial<WebhookEndpointDocument> = { updatedAt: new Date(changes.updatedAt) };
  const unset: Partial<Record<'disabledReason' | 'failingSince', ''>> = {};
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.events !== undefined) set.events = [...changes.events];
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.enabled !== undefined) set.enabled = changes.enabled;
  if (changes.secrets !== undefined) set.secrets = copySecrets(changes.secrets);
  if (changes.disabledReason === null) unset.disabledReason = '';
  else if (changes.disabledReason !== undefined) set.disabledReason = changes.disabledReason;
  if (changes.failingSince === null) unset.failingSince = '';
  else if (changes.failingSince !== undefined) set.failingSince = new Date(changes.failingSince);
  return Object.keys(unset).length === 0 ? { $set: set } : { $set: set, $unset: unset };
}

export class MongoWebhookEndpointStore implements WebhookEndpointStore {
  constructor(private readonly endpoints: Collection<WebhookEndpointDocument>) {}

  create(endpoint: WebhookEndpoint): Promise<void> {
    return storeOperation(async () => {
      await this.endpoints.insertOne(toEndpointDocument(endpoint));
    });
  }

  get(webhookId: string): Promise<WebhookEndpoint | null> {
    return storeOperation(async () => {
      const document = await this.endpoints.findOne({ _id: webhookId });
      return document === null ? null : toEndpoint(document);
    });
  }

  list(): Promise<WebhookEndpoint[]> {
    return storeOperation(async () => (await this.endpoints.find({}).sort({ createdAt: 1, _id: 1 }).toArray()).map(toEndpoint));
  }

  update(webhookId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    return storeOperation(async () => {
      const document = await this.endpoints.findOneAndUpdate({ _id: webhookId }, toUpdate(changes), { returnDocument: 'after' });
      return document === null ? null : toEndpoint(document);
    });
  }

  markFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    return storeOperation(async () => {
      const document = await this.endpoints.findOneAndUpdate(
        { _id: webhookId },
        [{ $set: { failingSince: { $ifNull: ['$failingSince', new Date(at)] } } }],
        { returnDocument: 'after' },
      );
      return document === null ? null : toEndpoint(document);
    });
  }

  remove(webhookId: string): Promise<boolean> {
    return storeOperation(async () => (await this.endpoints.deleteOne({ _id: webhookId })).deletedCount === 1);
  }
}
