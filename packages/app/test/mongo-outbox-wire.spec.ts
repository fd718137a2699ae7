/**
 * The MongoDB order store's outbox as it reaches the wire (real driver, stand-in server: see
 * mongo-wire-fake.ts): each change carries its outbox fields in the one command that stores it, and
 * the outbox is read and marked with the shapes its partial index needs. What a real server does
 * with them is the contract suite's job (packages/adapters-mongo/test, with a MongoDB); this runs
 * everywhere.
 */
import { anOrder } from '@storefront/testing';
import { INDEXES, type MongoAdapters } from '@storefront/adapters-mongo';
import { planMove } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { Long, type Document, type MongoClient } from 'mongodb';
import { productionAdaptersOn } from './mongo-wire-adapters.js';
import { startFakeMongod, type FakeMongod, type ReceivedCommand } from './mongo-wire-fake.js';

describe('MongoDB order store: the outbox on the wire (stand-in server)', function () {
  this.timeout(20_000);
  let fake: FakeMongod;
  let client: MongoClient;
  let adapters: MongoAdapters;

  beforeEach(async () => {
    fake = await startFakeMongod();
    ({ client, adapters } = await productionAdaptersOn(fake, 'storefront'));
  });

  afterEach(async () => {
    await client.close();
    await fake.close();
  });

  /** What the server received while `work` ran. */
  async function sent(work: () => Promise<unknown>): Promise<ReceivedCommand[]> {
    const from = fake.commands.length;
    await work();
    return fake.commands.slice(from);
  }

  it('creates the partial orders_outbox index on (updatedAt, _id), holding only the orders flagged pending', async () => {
    const created = fake.commands.filter((c) => c.name === 'createindexes' && c.body['createIndexes'] === 'orders');
    const indexes = created.flatMap((c) => c.body['indexes'] as Document[]);
    expect(indexes.find((index) => index['name'] === INDEXES.ordersOutbox)).to.deep.equal({
      name: INDEXES.ordersOutbox,
      key: { updatedAt: 1, _id: 1 },
      partialFilterExpression: { eventsPending: true },
    });
  });

  it('inserts a new order with its outbox fields, in the insert itself', async () => {
    const order = anOrder();
    const commands = await sent(() => adapters.orders.insert(order));
    expect(commands.map((c) => c.name)).to.deep.equal(['insert']);
    expect(commands[0]!.body['documents']).to.have.length(1);
    expect((commands[0]!.body['documents'] as Document[])[0]).to.deep.include({ _id: order.orderId, version: 1, publishedVersion: 0, eventsPending: true });
  });

  it('flags a move pending and keeps the mark in the compare-and-set itself', async () => {
    const order = anOrder();
    const move = planMove(order, { to: 'accepted', by: 'staff' }, new Date(order.createdAt.getTime() + 1000));
    const commands = await sent(() => adapters.orders.applyMove(move));
    expect(commands.map((c) => c.name)).to.deep.equal(['findandmodify']);
    const { query, update } = commands[0]!.body as { query: Document; update: Document };
    expect(query).to.deep.equal({ _id: order.orderId, version: 1 });
    expect(update['$set']).to.deep.include({ status: 'accepted', version: 2, eventsPending: true });
    expect(update['$min']).to.deep.equal({ publishedVersion: 1 });
  });

  it('reads the oldest pending orders with the partial index filter, and never asks for 0 (no limit)', async () => {
    const order = anOrder();
    const stored = { _id: order.orderId, ...withoutId(order), eventsPending: true, publishedVersion: 0 };
    fake.answer = (c) => (c.name === 'find' ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'storefront.orders', firstBatch: [stored] } } : undefined);
    let due: unknown;
    const commands = await sent(async () => (due = await adapters.orderOutbox.listUnpublished(3)));
    expect(commands.map((c) => c.name)).to.deep.equal(['find']);
    expect(commands[0]!.body).to.deep.include({ filter: { eventsPending: true }, sort: { updatedAt: 1, _id: 1 }, limit: 3 });
    expect(due).to.deep.equal([{ order, publishedVersion: 0 }]);
    expect(await sent(() => adapters.orderOutbox.listUnpublished(0))).to.deep.equal([]);
  });

  it('marks the version published in one update, and only when the order moved on meanwhile raises the mark in a second', async () => {
    const orderId = anOrder().orderId;
    const first = await sent(() => adapters.orderOutbox.markPublished(orderId, 2));
    expect(first.map((c) => c.name)).to.deep.equal(['update']);
    expect(updateOf(first[0]!)).to.deep.include({ q: { _id: orderId, version: 2 }, u: { $set: { publishedVersion: 2 }, $unset: { eventsPending: '' } } });

    fake.answer = (c) => (c.name === 'update' ? { ok: 1, n: 0, nModified: 0 } : undefined);
    const moved = await sent(() => adapters.orderOutbox.markPublished(orderId, 2));
    expect(moved.map((c) => c.name)).to.deep.equal(['update', 'update']);
    expect(updateOf(moved[1]!)).to.deep.include({
      q: { _id: orderId, version: { $gt: 2 }, publishedVersion: { $lt: 2 } },
      u: { $set: { publishedVersion: 2 } },
    });
  });
});

describe('MongoDB order store: a batch of marks on the wire (stand-in server)', function () {
  this.timeout(20_000);
  let fake: FakeMongod;
  let client: MongoClient;
  let adapters: MongoAdapters;

  beforeEach(async () => {
    fake = await startFakeMongod();
    ({ client, adapters } = await productionAdaptersOn(fake, 'storefront'));
  });

  afterEach(async () => {
    await client.close();
    await fake.close();
  });

  it("marks a relay's batch in one unordered update command: both updates of each order", async () => {
    const [a, b] = [anOrder().orderId, anOrder().orderId];
    const from = fake.commands.length;
    await adapters.orderOutbox.markAllPublished!([
      { orderId: a, version: 1 },
      { orderId: b, version: 3 },
    ]);
    const commands = fake.commands.slice(from);
    expect(commands.map((c) => c.name)).to.deep.equal(['update']);
    expect(commands[0]!.body['ordered']).to.equal(false);
    const updates = (commands[0]!.body['updates'] as Document[]).map((u) => ({ q: u['q'], u: u['u'] }));
    expect(updates).to.deep.equal([
      { q: { _id: a, version: 1 }, u: { $set: { publishedVersion: 1 }, $unset: { eventsPending: '' } } },
      { q: { _id: a, version: { $gt: 1 }, publishedVersion: { $lt: 1 } }, u: { $set: { publishedVersion: 1 } } },
      { q: { _id: b, version: 3 }, u: { $set: { publishedVersion: 3 }, $unset: { eventsPending: '' } } },
      { q: { _id: b, version: { $gt: 3 }, publishedVersion: { $lt: 3 } }, u: { $set: { publishedVersion: 3 } } },
    ]);
  });
});

function updateOf(command: ReceivedCommand): Document {
  const updates = command.body['updates'] as Document[];
  expect(updates).to.have.length(1);
  return updates[0]!;
}

function withoutId<T extends { orderId: string }>(order: T): Omit<T, 'orderId'> {
  const { orderId: _id, ...rest } = order;
  return rest;
}
