/**
 * The read after a duplicate-key error runs in a causally consistent session, and the driver writes
 * that session's `afterClusterTime` into the read concern object the read resolved. Given the Db
 * handle's own (shared by every collection), every later read carried it: with
 * `readConcernLevel=linearizable` the server refused each one (code 72) until a restart. Real driver,
 * production settings, the wire stand-in as a replica set member that refuses what a server refuses.
 */
import { anIdempotencyClaim, anOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { Long, type Document } from 'mongodb';
import { productionAdaptersOn } from './mongo-wire-adapters.js';
import { startFakeMongod, type ReceivedCommand } from './mongo-wire-fake.js';

const readConcernOf = (command: ReceivedCommand): Document | undefined => command.body['readConcern'] as Document | undefined;

/** What MongoDB answers a linearizable read in a causally consistent session (afterClusterTime). */
function refusesLinearizableAfterClusterTime(command: ReceivedCommand): Document | undefined {
  const concern = readConcernOf(command);
  if (command.name !== 'find' || concern?.['level'] !== 'linearizable' || concern['afterClusterTime'] === undefined) return undefined;
  return { ok: 0, code: 72, codeName: 'InvalidOptions', errmsg: 'linearizable read concern is not supported with afterClusterTime' };
}

describe('Reads after a duplicate-key race, in and after its causal session (stand-in replica set)', () => {
  async function start(query = 'readConcernLevel=linearizable'): Promise<{ fake: Awaited<ReturnType<typeof startFakeMongod>>; close(): Promise<void>; adapters: Awaited<ReturnType<typeof productionAdaptersOn>>['adapters'] }> {
    const fake = await startFakeMongod({ replicaSetMembers: 3 });
    const uri = fake.uri('linear', query);
    // productionAdaptersOn builds its URI from the database name: pass the query through it.
    const started = await productionAdaptersOn({ ...fake, uri: () => uri } as typeof fake, 'linear');
    return { fake, adapters: started.adapters, close: async () => { await started.client.close(); await fake.close(); } };
  }

  it('with readConcernLevel=linearizable: reads the winner at majority in the session, and later reads carry no afterClusterTime and are served', async () => {
    const { fake, adapters, close } = await start();
    try {
      const winner = anIdempotencyClaim();
      expect(await adapters.idempotencyKeys.claim(winner, new Date())).to.deep.equal({ kind: 'claimed' });
      const insert = fake.commands.filter((c) => c.name === 'insert' && c.body['insert'] === 'idempotency_keys').at(-1)!;
      const record = (insert.body['documents'] as Document[])[0]!;
      fake.answer = (command) => {
        const refused = refusesLinearizableAfterClusterTime(command);
        if (refused !== undefined) return refused;
        if (command.name === 'find' && command.body['find'] === 'idempotency_keys') return { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'linear.idempotency_keys', firstBatch: [record] } };
        return undefined;
      };

      // The loser's insert is refused (E11000); its read of the winner runs in the causal session.
      const loser = anIdempotencyClaim({ customerId: winner.customerId, key: winner.key, fingerprint: 'another body' });
      expect((await adapters.idempotencyKeys.claim(loser, new Date())).kind).to.equal('held');
      const sessionRead = fake.commands.filter((c) => c.name === 'find' && c.body['find'] === 'idempotency_keys').at(-1)!;
      expect(readConcernOf(sessionRead)).to.include({ level: 'majority' });
      expect(readConcernOf(sessionRead)?.['afterClusterTime']).to.not.equal(undefined);

      // A later read of any collection, outside the session: the handle's level, no afterClusterTime.
      const order = anOrder();
      expect(await adapters.orders.findOrder(order.customerId, order.orderId)).to.equal(null);
      expect(await adapters.customers.findByEmail('nobody@example.com')).to.equal(null);
      const later = fake.commands.filter((c) => c.name === 'find').slice(-2);
      expect(later.map((c) => c.body['find'])).to.deep.equal(['orders', 'customers']);
      for (const read of later) expect(readConcernOf(read)).to.deep.equal({ level: 'linearizable' });
    } finally {
      await close();
    }
  });

  it('with readConcernLevel=linearizable: reads the stored order after a refused order insert, and later reads stay linearizable', async () => {
    const { fake, adapters, close } = await start();
    try {
      const order = anOrder();
      await adapters.orders.insert(order);
      const stored = (fake.commands.filter((c) => c.name === 'insert' && c.body['insert'] === 'orders').at(-1)!.body['documents'] as Document[])[0]!;
      fake.answer = (command) => {
        const refused = refusesLinearizableAfterClusterTime(command);
        if (refused !== undefined) return refused;
        if (command.name === 'find' && command.body['find'] === 'orders') return { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'linear.orders', firstBatch: [stored] } };
        return undefined;
      };
      expect(await adapters.orders.insert(order)).to.deep.equal({ order, inserted: false });
      expect(await adapters.orders.findOrder(order.customerId, order.orderId)).to.deep.equal(order);
      expect(readConcernOf(fake.commands.filter((c) => c.name === 'find').at(-1)!)).to.deep.equal({ level: 'linearizable' });
    } finally {
      await close();
    }
  });

  it('with the default majority reads too: a later read outside the session carries no afterClusterTime', async () => {
    const { fake, adapters, close } = await start('');
    try {
      const order = anOrder();
      await adapters.orders.insert(order);
      const stored = (fake.commands.filter((c) => c.name === 'insert' && c.body['insert'] === 'orders').at(-1)!.body['documents'] as Document[])[0]!;
      fake.answer = (command) =>
        command.name === 'find' && command.body['find'] === 'orders' ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'linear.orders', firstBatch: [stored] } } : undefined;
      expect(await adapters.orders.insert(order)).to.deep.equal({ order, inserted: false });
      await adapters.orders.findOrder(order.customerId, order.orderId);
      const [inSession, later] = fake.commands.filter((c) => c.name === 'find' && c.body['find'] === 'orders').slice(-2);
      expect(readConcernOf(inSession!)?.['afterClusterTime']).to.not.equal(undefined);
      expect(readConcernOf(later!)).to.deep.equal({ level: 'majority' });
    } finally {
      await close();
    }
  });
});
