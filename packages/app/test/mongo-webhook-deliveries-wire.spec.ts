/**
 * The MongoDB webhook delivery store as it reaches the wire (real driver, stand-in server: see
 * mongo-wire-fake.ts), for issue 32 items 11 to 13: the lease reads the due index only for the
 * endpoints that can take deliveries, with a limit; the pending count is hinted to the pending
 * partial index; finished deliveries carry the date the TTL index removes them at. What a real
 * server does with them is the contract suite's job (packages/adapters-mongo/test, with a MongoDB).
 */
import { COLLECTIONS, INDEXES, type MongoAdapters } from '@storefront/adapters-mongo';
import { expect } from 'chai';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { Long, type Document, type MongoClient } from 'mongodb';
import { productionAdaptersOn } from './mongo-wire-adapters.js';
import { startFakeMongod, type FakeMongod, type ReceivedCommand } from './mongo-wire-fake.js';

describe('MongoDB webhook delivery store on the wire (stand-in server)', function () {
  this.timeout(20_000);
  let fake: FakeMongod;
  let client: MongoClient;
  let adapters: MongoAdapters;
  const now = new Date(Date.UTC(2025, 0, 15, 12));

  beforeEach(async () => {
    fake = await startFakeMongod();
    ({ client, adapters } = await productionAdaptersOn(fake, 'storefront'));
  });

  afterEach(async () => {
    await client.close();
    await fake.close();
  });

  async function sent(work: () => Promise<unknown>): Promise<ReceivedCommand[]> {
    const from = fake.commands.length;
    await work();
    return fake.commands.slice(from).filter((c) => c.body[c.name === 'findandmodify' ? 'findAndModify' : Object.keys(c.body)[0]!] === COLLECTIONS.webhookDeliveries);
  }

  function indexNamed(name: string): Document | undefined {
    return fake.commands
      .filter((c) => c.name === 'createindexes' && c.body['createIndexes'] === COLLECTIONS.webhookDeliveries)
      .flatMap((c) => c.body['indexes'] as Document[])
      .find((index) => index['name'] === name);
  }

  it('walks due deliveries by endpoint: a partial (webhookId, readyAt, _id) index on pending ones', () => {
    expect(indexNamed(INDEXES.webhookDeliveriesDue)).to.deep.include({
      key: { webhookId: 1, readyAt: 1, _id: 1 },
      partialFilterExpression: { status: 'pending' },
    });
  });

  it('leases through that index, only for the endpoints that can take deliveries (not the busy ones), reading a limited window', async () => {
    const commands = await sent(() => adapters.webhookDeliveryQueue.lease({ now, limit: 4, leaseMs: 60_000, webhookIds: ['whk_a', 'whk_busy', 'whk_c'], excludeWebhookIds: ['whk_busy'] }));
    const finds = commands.filter((c) => c.name === 'find');
    expect(finds).to.have.length(1);
    const find = finds[0]!.body;
    expect(find['filter']).to.deep.include({ status: 'pending', webhookId: { $in: ['whk_a', 'whk_c'] } });
    expect(find['hint']).to.equal(INDEXES.webhookDeliveriesDue);
    expect(find['limit']).to.equal(4);
    expect(find['sort']).to.deep.equal({ readyAt: 1, _id: 1 });
  });

  it('reads nothing when every endpoint asked for is busy', async () => {
    const commands = await sent(() => adapters.webhookDeliveryQueue.lease({ now, limit: 4, leaseMs: 60_000, webhookIds: ['whk_busy'], excludeWebhookIds: ['whk_busy'] }));
    expect(commands).to.deep.equal([]);
  });

  it('counts pending deliveries through the pending partial index (hinted), not a scan of the collection', async () => {
    fake.answer = (command) =>
      command.name === 'aggregate' ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'storefront.webhook_deliveries', firstBatch: [{ _id: 1, n: 3 }] } } : undefined;
    let stats: unknown;
    const commands = await sent(async () => (stats = await adapters.webhookDeliveryQueue.stats()));
    expect(stats).to.deep.equal({ pending: 3 });
    const count = commands.find((c) => c.name === 'aggregate')!.body;
    expect(count['hint']).to.equal(INDEXES.webhookDeliveriesPendingAge);
    expect((count['pipeline'] as Document[])[0]).to.deep.equal({ $match: { status: 'pending' } });
    expect(commands.find((c) => c.name === 'find')!.body['hint']).to.equal(INDEXES.webhookDeliveriesPendingAge);
  });

  it('keeps a finished delivery until its keepUntil: a TTL index on expiresAt, set when it finishes, cleared on a retry', async () => {
    expect(indexNamed(INDEXES.webhookDeliveriesExpiry)).to.deep.include({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
    const keepUntil = new Date(now.getTime() + 30 * 86_400_000);
    const [record] = await sent(() => adapters.webhookDeliveryQueue.record('wdl_1', 'token', { kind: 'delivered', at: now, statusCode: 200, keepUntil }));
    expect((record!.body['update'] as Document)['$set']).to.deep.include({ expiresAt: keepUntil });
    const [again] = await sent(() => adapters.webhookDeliveryLog.retry('whk_a', 'wdl_1', now));
    expect(((again!.body['updates'] as Document[])[0]!['u'] as Document)['$unset']).to.have.property('expiresAt');
  });
});
