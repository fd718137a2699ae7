/**
 * The data upgrades at start, as they reach the wire (real driver, stand-in server): a database
 * without the `schema` marker (new, or upgraded by a version that kept none) gets each upgrade once,
 * every order update bounded by the kitchen queue's index, and the marker listing them; a start that
 * finds the marker sends nothing to `orders` at all (a scan of a year of orders under the 2 s socket
 * time-out failed every start).
 */
import { DATA_UPGRADES } from '@storefront/adapters-mongo';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { Long, type Document } from 'mongodb';
import { useStandIns } from './mongo-wire-adapters.js';
import type { ReceivedCommand } from './mongo-wire-fake.js';

const collectionOf = (command: ReceivedCommand): unknown => command.body[Object.keys(command.body)[0]!];

/** What the start sent to `orders`, other than creating its indexes. */
const toOrders = (commands: readonly ReceivedCommand[]): ReceivedCommand[] => commands.filter((c) => collectionOf(c) === 'orders' && c.name !== 'createindexes');

describe('Data upgrades at start (stand-in server)', () => {
  const standIns = useStandIns();

  it('upgrades a database without the schema marker once, by the kitchen queue index, and lists every upgrade in the marker', async () => {
    const fake = await standIns.fake();
    await standIns.adapters(fake, 'unmarked');

    const updates = toOrders(fake.commands).filter((c) => c.name === 'update');
    expect(updates).to.have.length(2);
    for (const update of updates) {
      for (const statement of update.body['updates'] as Document[]) expect(statement).to.include({ multi: true, hint: 'orders_kitchen_queue' });
    }
    const marks = fake.commands.filter((c) => c.name === 'update' && collectionOf(c) === 'meta' && JSON.stringify(c.body['updates']).includes('schema'));
    expect(marks.map((c) => ((c.body['updates'] as Document[])[0]!['u'] as Document)['$addToSet'])).to.deep.equal(DATA_UPGRADES.map((upgrade) => ({ upgrades: upgrade.id })));
  });

  it('sends nothing to orders at a start that finds every upgrade in the marker', async () => {
    const fake = await standIns.fake();
    fake.answer = (command) =>
      command.name === 'find' && collectionOf(command) === 'meta' && (command.body['filter'] as Document)['_id'] === 'schema'
        ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'marked.meta', firstBatch: [{ _id: 'schema', upgrades: DATA_UPGRADES.map((upgrade) => upgrade.id) }] } }
        : undefined;
    await standIns.adapters(fake, 'marked');

    expect(toOrders(fake.commands).map((c) => c.name)).to.deep.equal([]);
    expect(fake.commands.filter((c) => collectionOf(c) === 'meta' && c.name === 'update' && JSON.stringify(c.body['updates']).includes('schema'))).to.deep.equal([]);
  });

  it('runs only the upgrade the marker does not list yet', async () => {
    const fake = await standIns.fake();
    fake.answer = (command) =>
      command.name === 'find' && collectionOf(command) === 'meta' && (command.body['filter'] as Document)['_id'] === 'schema'
        ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'partly.meta', firstBatch: [{ _id: 'schema', upgrades: ['orders-retired-key-index', 'orders-lifecycle'] }] } }
        : undefined;
    await standIns.adapters(fake, 'partly');

    const sent = toOrders(fake.commands);
    expect(sent.map((c) => c.name)).to.deep.equal(['update']);
    expect(((sent[0]!.body['updates'] as Document[])[0]!['q'] as Document)).to.deep.equal({ promisedAt: { $exists: false } });
  });
});
