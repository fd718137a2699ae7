/**
 * Duplicate-key races on a replica set, through the real driver and the production settings
 * (majority reads, majority writes) against the wire stand-in. The stand-in refuses the losing
 * insert with E11000 as a server does, and answers reads as a primary whose majority-committed view
 * does not include the winner's write yet: a read sees the winner only when it waits for the
 * refused insert's operationTime (afterClusterTime), as a real majority read then does. Without the
 * causally consistent session (adapters-mongo causal-session.ts), the loser of a key answered 409
 * `idempotency_key_in_use` after five blind attempts (where a different body must get 422), and the
 * loser of an order insert a plain 500.
 */
import type { MongoAdapters } from '@storefront/adapters-mongo';
import { createStorefront } from '@storefront/domain';
import { anIdempotencyClaim, anOrder, expectDomainError } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { Long, Timestamp, type Document, type MongoClient } from 'mongodb';
import { productionAdaptersOn } from './mongo-wire-adapters.js';
import { startFakeMongod, type FakeMongod, type ReceivedCommand } from './mongo-wire-fake.js';

describe('Duplicate-key races on a replica set whose majority has not seen the winner yet', () => {
  let fake: FakeMongod;
  let client: MongoClient;
  let adapters: MongoAdapters;

  before(async () => {
    fake = await startFakeMongod({ replicaSetMembers: 3 });
    ({ client, adapters } = await productionAdaptersOn(fake, 'race'));
  });
  after(async () => {
    await client.close();
    await fake.close();
  });

  /**
   * Reads of `collection` see `winner` only when they wait for a time at or after `committedAt`
   * (the winner's write); every other read is a majority read that does not see it yet.
   */
  function majorityLagsBehind(collection: string, winner: Document, committedAt: Timestamp): ReceivedCommand[] {
    const reads: ReceivedCommand[] = [];
    fake.answer = (command) => {
      if (command.name !== 'find' || command.body['find'] !== collection) return undefined;
      reads.push(command);
      const after = (command.body['readConcern'] as Document | undefined)?.['afterClusterTime'];
      const sees = after instanceof Timestamp && after.greaterThanOrEqual(committedAt);
      return { ok: 1, cursor: { id: Long.fromNumber(0), ns: `race.${collection}`, firstBatch: sees ? [winner] : [] } };
    };
    return reads;
  }

  function inserted(collection: string): Document {
    const insert = fake.commands.filter((c) => c.name === 'insert' && c.body['insert'] === collection).at(-1);
    return (insert!.body['documents'] as Document[])[0]!;
  }

  it("gives the loser of an Idempotency-Key the winner's record (with the winner's body), not a 409 after blind retries", async () => {
    const winner = anIdempotencyClaim({ fingerprint: 'the winner’s body' });
    expect(await adapters.idempotencyKeys.claim(winner, new Date())).to.deep.equal({ kind: 'claimed' });
    const reads = majorityLagsBehind('idempotency_keys', inserted('idempotency_keys'), fake.clusterTime);

    const loser = anIdempotencyClaim({ customerId: winner.customerId, key: winner.key, fingerprint: 'another body' });
    const result = await adapters.idempotencyKeys.claim(loser, new Date());

    expect(result.kind).to.equal('held');
    const held = result as Extract<typeof result, { kind: 'held' }>;
    // A different body than the holder's: PlaceOrder answers 422 idempotency_key_reused on it.
    expect(held.record).to.include({ owner: winner.owner, fingerprint: winner.fingerprint, orderId: winner.orderId, state: 'in_progress' });
    expect(reads.map((read) => (read.body['readConcern'] as Document)['level'])).to.deep.equal(['majority']);
  });

  it('answers a request with the same key and another body 422 idempotency_key_reused, not 409, while the winner is not majority-committed', async () => {
    const customerId = anIdempotencyClaim().customerId;
    const key = `key-${Date.now()}`;
    const winner = anIdempotencyClaim({ customerId, key, fingerprint: 'the winner’s body' });
    await adapters.idempotencyKeys.claim(winner, new Date());
    majorityLagsBehind('idempotency_keys', inserted('idempotency_keys'), fake.clusterTime);
    // Placement claims the key before it reads the menu or the store's state: no other port is asked.
    const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used before the claim')) }) as never;
    const { placeOrder } = createStorefront({ menu: unused, orders: adapters.orders, idempotencyKeys: adapters.idempotencyKeys, orderOutbox: adapters.orderOutbox, storeState: unused, events: unused, customers: unused, pendingErasures: unused, sessions: unused, resetTokens: unused, limiter: unused, hasher: unused, tokens: unused });

    await expectDomainError(placeOrder.execute({ customerId, idempotencyKey: key, items: [{ productId: 'prd_other', quantity: 1 }] }), 'idempotency_key_reused');
  });

  it('gives the loser of an order insert the stored order, not a 500', async () => {
    const order = anOrder();
    expect(await adapters.orders.insert(order)).to.deep.equal({ order, inserted: true });
    majorityLagsBehind('orders', inserted('orders'), fake.clusterTime);

    expect(await adapters.orders.insert(order)).to.deep.equal({ order, inserted: false });
  });
});
