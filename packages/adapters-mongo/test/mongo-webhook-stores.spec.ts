/**
 * The webhook store contracts on a real MongoDB (skipped, loudly, without one). The "other
 * instance" of the delivery store is a second store object over the same collection: its claims
 * run on other connections of the client's pool, raced by the server as another process's are.
 */
import { describeWebhookDeliveriesContract, describeWebhookEndpointStoreContract } from '@storefront/testing';
import { before, describe } from 'mocha';
import { COLLECTIONS, createMongoAdapters, MongoWebhookDeliveryLog, MongoWebhookDeliveryQueue, MongoWebhookDeliveryUpkeep, type MongoAdapters, type WebhookDeliveryDocument } from '../src/index.js';
import { useTestDatabase } from './mongo-server.js';

describe('Mongo webhook stores', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
  });

  describeWebhookEndpointStoreContract('MongoWebhookEndpointStore', async () => adapters.webhookEndpoints);
  describeWebhookDeliveriesContract('MongoWebhookDelivery{Queue,Log,Upkeep}', async () => {
    const deliveries = db().collection<WebhookDeliveryDocument>(COLLECTIONS.webhookDeliveries);
    await deliveries.deleteMany({});
    const { webhookDeliveryQueue: queue, webhookDeliveryLog: log, webhookDeliveryUpkeep: upkeep } = adapters;
    const other = { queue: new MongoWebhookDeliveryQueue(deliveries), log: new MongoWebhookDeliveryLog(deliveries), upkeep: new MongoWebhookDeliveryUpkeep(deliveries) };
    return { store: { queue, log, upkeep }, other };
  });
});
