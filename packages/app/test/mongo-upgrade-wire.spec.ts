/**
 * A store written by the first MongoDB release, met by this one, as it reaches the wire (real
 * driver, stand-in server answering what that release left behind): its retired unique index is
 * dropped at start, and its key records (no holder, no order creation time) are upgraded when a
 * claim meets them, so a retry gets its order replayed instead of a 500.
 */
import type { MongoAdapters } from '@storefront/adapters-mongo';
import { anIdempotencyClaim, anOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { Long, ObjectId, type Document } from 'mongodb';
import { useStandIns } from './mongo-wire-adapters.js';
import type { FakeMongod, ReceivedCommand } from './mongo-wire-fake.js';

const batch = (collection: string, documents: Document[]): Document => ({ ok: 1, cursor: { id: Long.fromNumber(0), ns: `old.${collection}`, firstBatch: documents } });

describe('A store written by the first MongoDB release (stand-in server)', () => {
  const standIns = useStandIns();
  let fake: FakeMongod | undefined;

  async function start(answer: (command: ReceivedCommand) => Document | undefined): Promise<MongoAdapters> {
    fake = await standIns.fake();
    fake.answer = answer;
    return standIns.adapters(fake, 'old');
  }

  it("drops the first release's unique index on the orders' {customerId, idempotencyKey} at start, and no other", async () => {
    await start((command) =>
      command.name === 'listindexes' && command.body['listIndexes'] === 'orders'
        ? batch('orders', [
            { v: 2, key: { _id: 1 }, name: '_id_' },
            { v: 2, key: { customerId: 1, createdAt: 1, _id: 1 }, name: 'orders_by_customer' },
            { v: 2, key: { customerId: 1, idempotencyKey: 1 }, name: 'orders_by_idempotency_key', unique: true, partialFilterExpression: { idempotencyKey: { $exists: true } } },
          ])
        : undefined,
    );
    const drops = fake!.commands.filter((c) => c.name === 'dropindexes');
    expect(drops.map((c) => [c.body['dropIndexes'], c.body['index']])).to.deep.equal([['orders', 'orders_by_idempotency_key']]);
  });

  it('replays the order of a completed first-release key record (no holder, no order time) to a retry, after giving the record both', async () => {
    const order = anOrder();
    const claim = anIdempotencyClaim({ customerId: order.customerId });
    let record: Document = { _id: new ObjectId(), customerId: claim.customerId, key: claim.key, state: 'completed', fingerprint: claim.fingerprint, orderId: order.orderId, lockExpiresAt: claim.lockExpiresAt, expiresAt: claim.expiresAt, claimedAt: order.createdAt };
    const adapters = await start((command) => {
      const collection = command.body[Object.keys(command.body)[0]!];
      if (command.name === 'insert' && collection === 'idempotency_keys') {
        return { ok: 1, n: 0, writeErrors: [{ index: 0, code: 11000, errmsg: `E11000 duplicate key error collection: old.idempotency_keys index: idempotency_keys_by_customer_key dup key: { customerId: "${claim.customerId}", key: "${claim.key}" }` }] };
      }
      if (command.name === 'find' && collection === 'idempotency_keys') return batch('idempotency_keys', [record]);
      if (command.name === 'find' && collection === 'orders') return batch('orders', [{ ...order, _id: order.orderId, idempotencyKey: claim.key }]);
      if (command.name === 'update' && collection === 'idempotency_keys') {
        const [update] = command.body['updates'] as Document[];
        record = { ...record, ...(update!['u'] as Document)['$set'] };
        return { ok: 1, n: 1, nModified: 1 };
      }
      return undefined;
    });

    const result = await adapters.idempotencyKeys.claim(claim, new Date());

    expect(result).to.deep.include({ kind: 'held' });
    const held = result as Extract<typeof result, { kind: 'held' }>;
    expect(held.record).to.include({ owner: 'first-release', state: 'completed', orderId: order.orderId });
    expect(held.record.orderCreatedAt).to.deep.equal(order.createdAt);
    expect(held.order).to.deep.equal(order);
  });
});
