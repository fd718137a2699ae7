/**
 * The MongoDB provider events as they reach the wire (real driver, stand-in server: see
 * mongo-wire-fake.ts), issue 35 item 5: the (provider, eventId) index is created unique with the
 * others, and a repeat's E11000 turns into one conditional update that takes only a lapsed,
 * unfinished claim. What a real server does with them is the contract suite's job.
 */
import { COLLECTIONS, INDEXES } from '@storefront/adapters-mongo';
import { PROVIDER_EVENT_LEASE_MS } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { Document } from 'mongodb';
import { useStandIns } from './mongo-wire-adapters.js';

describe('MongoDB provider events on the wire (stand-in server)', function () {
  this.timeout(20_000);
  const standIns = useStandIns();
  const receivedAt = new Date(Date.UTC(2025, 5, 1, 12));

  it('creates the (provider, eventId) index unique, with the other indexes', async () => {
    const fake = await standIns.fake();
    await standIns.adapters(fake, 'events');
    const index = fake.commands
      .filter((c) => c.name === 'createindexes' && c.body['createIndexes'] === COLLECTIONS.providerEvents)
      .flatMap((c) => c.body['indexes'] as Document[])
      .find((spec) => spec['name'] === INDEXES.providerEventOnce);
    expect(index).to.deep.include({ key: { provider: 1, eventId: 1 }, unique: true });
  });

  it('gives one of 20 concurrent claims, and tries the others as a lapsed-lease update only', async () => {
    const fake = await standIns.fake();
    const { providerEvents } = await standIns.adapters(fake, 'events');
    const claims = await Promise.all(Array.from({ length: 20 }, () => providerEvents.claim('stripe', 'evt_wire', receivedAt)));
    expect(claims.filter(Boolean)).to.have.length(1);
    const update = fake.commands.find((c) => c.name === 'update' && c.body['update'] === COLLECTIONS.providerEvents);
    const [statement] = update!.body['updates'] as Document[];
    expect(statement!['q']).to.deep.equal({ provider: 'stripe', eventId: 'evt_wire', completedAt: null, leaseUntil: { $lte: receivedAt } });
    expect(statement!['u']).to.deep.equal({ $set: { leaseUntil: new Date(receivedAt.getTime() + PROVIDER_EVENT_LEASE_MS) } });
    expect(statement!['upsert'] ?? false).to.equal(false);
  });
});
