/**
 * Index builds at start-up, as they reach the wire (real driver, stand-in server): on a replica set
 * a new index is committed once a majority of the voting members is ready (commitQuorum
 * "majority"), so one member down cannot hold start-up; a standalone server, which refuses the
 * option, is not sent it; and a build that does not finish fails start-up's attempt with an error
 * naming the collection, its indexes and what the build waits for (docs/decisions.md, "MongoDB
 * index builds at start-up"). Whether a real server honours the quorum is the server's documented
 * behaviour, not something the stand-in can show.
 */
import { IndexBuildError } from '@storefront/adapters-mongo';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { useStandIns } from './mongo-wire-adapters.js';
import type { FakeMongod } from './mongo-wire-fake.js';

describe('MongoDB index builds at start-up (stand-in server)', () => {
  const standIns = useStandIns();
  let fake: FakeMongod | undefined;

  const indexCommands = () => fake!.commands.filter((c) => c.name === 'createindexes');

  it('asks a replica set to commit every new index on a majority of its voting members, not all of them', async () => {
    fake = await standIns.fake({ replicaSetMembers: 3 });
    await standIns.adapters(fake, 'indexes');
    expect(indexCommands()).to.have.length.greaterThan(0);
    for (const command of indexCommands()) expect(command.body, String(command.body['createIndexes'])).to.include({ commitQuorum: 'majority' });
  });

  it('sends a standalone server no commit quorum, which it would refuse', async () => {
    fake = await standIns.fake();
    await standIns.adapters(fake, 'indexes');
    expect(indexCommands()).to.have.length.greaterThan(0);
    for (const command of indexCommands()) expect(command.body).to.not.have.property('commitQuorum');
  });

  it('fails with an error naming the collection, its indexes and the quorum when a build does not finish in time', async () => {
    fake = await standIns.fake({ replicaSetMembers: 3 });
    // What a build waiting on its commit quorum looks like to the client: no answer.
    fake.answer = (command) => (command.name === 'createindexes' && command.body['createIndexes'] === 'orders' ? 'stall' : undefined);
    const failure = await standIns.adapters(fake, 'indexes', 300).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(IndexBuildError);
    expect((failure as Error).message)
      .to.match(/^creating the indexes of orders \(orders_by_customer, orders_kitchen_queue, orders_outbox, orders_by_payment_intent, orders_payment_checks\) failed: /)
      .and.include('a majority of the replica set\'s voting members (commitQuorum "majority")');
  });
});
