/**
 * The webhook store contracts on a real MongoDB (skipped, loudly, without one). The "other
 * instance" of the delivery store is a second store object over the same collection: its claims
 * run on other connections of the client's pool, raced by the server as another process's are.
 */
import { describeWebhookDeliveryStoreContract, describeWebhookEndpointStoreContract } from '@storefront/testing';
import { before, describe } from 'mocha';
import { COLLECTIONS, createMongoAdapters, MongoWebhookDeliveryStore, type MongoAdapters, type WebhookDeliveryDocument } from '../src/index.js';
import { useTestDatabase } from './mongo-server.js';

describe('Mongo webhook stores', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
  });

  describeWebhookEndpointStoreContract('MongoWebhookEndpointStore', async () => adapters.webhookEndpoints);
  describeWebhookDeliveryStoreContract('MongoWebhookDeliveryStore', async () => {
    const deliveries = db().collection<WebhookDeliveryDocument>(COLLECTIONS.webhookDeliveries);
    await deliveries.deleteMany({});
    return { store: adapters.webhookDeliveries, other: new MongoWebhookDeliveryStore(deliveries) };
  });
});
