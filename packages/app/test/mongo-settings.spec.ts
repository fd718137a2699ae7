/**
 * The MongoDB client settings: what "only upward" means for each, and that the real driver applies
 * ours over what MONGODB_URI says (client options over URI options, the Db handle over the client).
 * No server needed: the driver parses and resolves options without connecting.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { MongoClient } from 'mongodb';
import { deploymentOf, durableDb, mongoClientOptions, readLevel, writeAcknowledgement, type Deployment } from '@storefront/adapters-mongo';

const STANDALONE: Deployment = { replicated: false, members: 0 };
const SET_OF_3: Deployment = { replicated: true, members: 3 };
const SET_OF_5: Deployment = { replicated: true, members: 5 };
const MONGOS: Deployment = { replicated: true, members: 0 };

describe('MongoDB client settings', () => {
  it('raises w to "majority" unless the URI asks for at least a majority of the set', () => {
    const cases: Array<[string | number | undefined, Deployment, string | number, boolean]> = [
      [undefined, SET_OF_3, 'majority', false],
      ['majority', SET_OF_3, 'majority', false],
      [0, SET_OF_3, 'majority', true],
      [1, SET_OF_3, 'majority', true],
      [2, SET_OF_3, 2, false], // 2 of 3 is a majority
      [3, SET_OF_3, 3, false], // more than a majority: kept
      [2, SET_OF_5, 'majority', true], // 2 of 5 is not
      [3, SET_OF_5, 3, false],
      [2, STANDALONE, 'majority', true], // nothing to count it against
      [2, MONGOS, 'majority', true],
      ['dc-east', SET_OF_3, 'majority', true], // a tag cannot be compared
    ];
    for (const [w, deployment, expected, raised] of cases) {
      const result = writeAcknowledgement(w, deployment);
      expect(result.w, `w=${String(w)} on ${JSON.stringify(deployment)}`).to.equal(expected);
      expect(result.raised !== undefined, `w=${String(w)}: a warning`).to.equal(raised);
    }
  });

  it('reads "majority" on a replica set or sharded cluster unless the URI asks for "linearizable", and "local" on a standalone server', () => {
    const cases: Array<[string | undefined, Deployment, string, boolean]> = [
      [undefined, SET_OF_3, 'majority', false],
      ['local', SET_OF_3, 'majority', true],
      ['available', MONGOS, 'majority', true],
      ['snapshot', SET_OF_3, 'majority', true],
      ['majority', SET_OF_3, 'majority', false],
      ['linearizable', SET_OF_3, 'linearizable', false],
      [undefined, STANDALONE, 'local', false],
      ['majority', STANDALONE, 'local', false],
    ];
    for (const [level, deployment, expected, raised] of cases) {
      const result = readLevel(level, deployment);
      expect(result.level, `${String(level)} on ${JSON.stringify(deployment)}`).to.equal(expected);
      expect(result.raised !== undefined, `${String(level)}: a warning`).to.equal(raised);
    }
  });

  it('reads the deployment from hello: set members listed as hosts and passives, a mongos, a standalone', () => {
    expect(deploymentOf({ setName: 'rs0', hosts: ['a:1', 'b:1'], passives: ['c:1'], arbiters: ['d:1'] })).to.deep.equal({ replicated: true, members: 3 });
    expect(deploymentOf({ msg: 'isdbgrid' })).to.deep.equal({ replicated: true, members: 0 });
    expect(deploymentOf({ isWritablePrimary: true })).to.deep.equal({ replicated: false, members: 0 });
  });

  it('bounds every stage of an operation by the time-out, over what the URI says, and retries writes and reads once', () => {
    const client = new MongoClient(
      'mongodb://db-1:27017/storefront?socketTimeoutMS=0&serverSelectionTimeoutMS=30000&waitQueueTimeoutMS=0&connectTimeoutMS=30000&retryWrites=false&retryReads=false',
      mongoClientOptions(1_500),
    );
    expect(client.options).to.include({
      socketTimeoutMS: 1_500,
      serverSelectionTimeoutMS: 1_500,
      waitQueueTimeoutMS: 1_500,
      connectTimeoutMS: 1_500,
      retryWrites: true,
      retryReads: true,
    });
  });

  it('gives every collection w=majority journaled, primary reads and majority reads even when the URI asks for less, keeping the URI\'s database and wtimeoutMS', () => {
    const client = new MongoClient(
      'mongodb://db-1:27017,db-2:27017/shop?replicaSet=rs0&w=1&journal=false&wtimeoutMS=500&readPreference=secondary&readPreferenceTags=dc:ny&maxStalenessSeconds=120&readConcernLevel=local',
    );
    const { db, raised } = durableDb(client, SET_OF_3);
    const orders = db.collection('orders');
    expect(db.databaseName).to.equal('shop');
    expect(orders.writeConcern).to.include({ w: 'majority', journal: true, wtimeoutMS: 500 });
    expect(orders.readPreference?.mode).to.equal('primary');
    expect(orders.readPreference?.tags).to.equal(undefined);
    expect(orders.readConcern?.level).to.equal('majority');
    expect(raised).to.have.length(3);
    // The client itself still says what the URI said: only the handle the adapters use is raised.
    expect(client.options.writeConcern?.w).to.equal(1);
  });

  it('keeps a stronger write concern from the URI on the collections (w=3 of a set of 3)', () => {
    const { db, raised } = durableDb(new MongoClient('mongodb://db-1:27017/shop?w=3'), SET_OF_3);
    expect(db.collection('orders').writeConcern).to.include({ w: 3, journal: true });
    expect(raised).to.deep.equal([]);
  });
});
