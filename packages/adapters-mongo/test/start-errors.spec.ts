/**
 * Which start-up failures the app's MongoDB connection retries and which stop the process: a table of the
 * driver's own error classes, built as the driver builds them (no server needed).
 */
import { DomainError } from '@storefront/domain';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import {
  MongoClient,
  MongoCompatibilityError,
  MongoInvalidArgumentError,
  MongoMissingCredentialsError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoParseError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type TopologyDescription,
} from 'mongodb';
import { IndexBuildError, mongoStartError } from '../src/index.js';

const server = (code: number, codeName: string, errmsg: string, errorLabels: string[] = []) => new MongoServerError({ ok: 0, code, codeName, errmsg, errorLabels });
/** What the driver throws when server selection times out, with the monitor's last error as cause. */
const selectionTimeout = (cause?: Error) =>
  new MongoServerSelectionError('Server selection timed out after 2000 ms', { error: cause } as unknown as TopologyDescription);

describe('mongoStartError', () => {
  const RETRY: Array<[string, unknown]> = [
    ['a refused connection', new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017')],
    ['a socket time-out', new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27017 timed out')],
    ['a server selection time-out after refused connections', selectionTimeout(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'))],
    ['a server selection time-out without a cause', selectionTimeout()],
    ['a primary stepping down (189)', server(189, 'PrimarySteppedDown', 'primary stepped down')],
    ['a secondary that is not primary (10107)', server(10107, 'NotWritablePrimary', 'not primary')],
    ['a server shutting down (91)', server(91, 'ShutdownInProgress', 'shutdown in progress')],
    ['an index conflict labelled RetryableWriteError (the label wins)', server(85, 'IndexOptionsConflict', 'conflict', ['RetryableWriteError'])],
    ['an error labelled TransientTransactionError', server(112, 'WriteConflict', 'write conflict', ['TransientTransactionError'])],
    ['a server code not known to be permanent', server(12345, 'SomethingNew', 'something new')],
    ['an Atlas error that is not about logging in', server(8000, 'AtlasError', 'space quota exceeded')],
    ['a topology closed while connecting', new MongoTopologyClosedError()],
    ['database_unavailable from the adapters, caused by a network error', new DomainError('database_unavailable', 'The database is unavailable.', { cause: new MongoNetworkError('socket hang up') })],
    ['an error that is not MongoDB\'s', new Error('boom')],
  ];
  for (const [what, error] of RETRY) {
    it(`retries ${what}`, () => {
      expect(mongoStartError(error)).to.deep.equal({ fatal: false, reason: 'MongoDB is not reachable yet' });
    });
  }

  it('retries an index build that cannot finish, saying which index', () => {
    const error = new IndexBuildError('orders', [{ key: { customer_id: 1 }, name: 'orders_by_customer' }], true, server(10107, 'NotWritablePrimary', 'not primary'));
    expect(mongoStartError(error)).to.deep.equal({ fatal: false, reason: error.message });
    expect(error.message).to.match(/^creating the indexes of orders \(orders_by_customer\) failed: not primary; .*commitQuorum/);
  });

  const PERMANENT: Array<[string, unknown, RegExp]> = [
    ['a failed login (18), with the labels the driver adds to it', server(18, 'AuthenticationFailed', 'Authentication failed.', ['HandshakeError', 'ResetPool']), /^AuthenticationFailed \(code 18\).*authSource/],
    ['a user without the role (13)', server(13, 'Unauthorized', 'not authorized on storefront to execute command'), /^Unauthorized \(code 13\).*roles/],
    ['Atlas refusing a login (8000 "bad auth")', server(8000, 'AtlasError', 'bad auth : authentication failed'), /^AtlasError \(code 8000\).*password/],
    ['a database name the server refuses (73)', server(73, 'InvalidNamespace', 'Invalid database name: bad$name'), /^InvalidNamespace \(code 73\).*database name/],
    ['an index with the same name and other options (85)', server(85, 'IndexOptionsConflict', 'Index already exists with different options'), /^IndexOptionsConflict \(code 85\).*drop that index/],
    ['an index with the same name and other keys (86)', server(86, 'IndexKeySpecsConflict', 'An existing index has the same name as the requested index'), /^IndexKeySpecsConflict \(code 86\).*drop that index/],
    ['a write concern the set cannot satisfy (100)', server(100, 'UnsatisfiableWriteConcern', 'Not enough data-bearing nodes'), /^UnsatisfiableWriteConcern \(code 100\).*w, readConcernLevel/],
    ['majority reads disabled (148)', server(148, 'ReadConcernMajorityNotEnabled', 'Majority read concern requested, but it is not supported'), /enableMajorityReadConcern/],
    ['an unparseable URI', new MongoParseError('option bogusoption is not supported'), /^MongoParseError: option bogusoption/],
    ['an invalid driver option', new MongoInvalidArgumentError('Invalid read preference mode "nearest-ish"'), /^MongoInvalidArgumentError/],
    ['missing credentials', new MongoMissingCredentialsError('Username required for mechanism \'SCRAM-SHA-256\''), /^MongoMissingCredentialsError/],
    ['a server too old for the driver, as server selection reports it', selectionTimeout(new MongoCompatibilityError('Server at db:27017 reports maximum wire version 7')), /wire version 7.*server version/],
    ['a domain error whose cause is an index conflict', new DomainError('database_unavailable', 'wrapped', { cause: server(85, 'IndexOptionsConflict', 'conflict') }), /IndexOptionsConflict/],
    [
      'an index build refused for its options, naming the index',
      new IndexBuildError('customers', [{ key: { email: 1 }, name: 'customers_by_email' }], false, server(85, 'IndexOptionsConflict', 'conflict')),
      /^creating the indexes of customers \(customers_by_email\) failed: IndexOptionsConflict \(code 85\)/,
    ],
  ];
  for (const [what, error, reason] of PERMANENT) {
    it(`stops on ${what}`, () => {
      const failure = mongoStartError(error);
      expect(failure.fatal).to.equal(true);
      expect(failure.reason).to.match(reason);
    });
  }

  it('stops on what the real driver throws for an unparseable connection string', () => {
    const error = (() => {
      try {
        new MongoClient('mongodb://127.0.0.1:27017/storefront?bogusOption=1');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).to.be.instanceOf(MongoParseError);
    expect(mongoStartError(error).fatal).to.equal(true);
  });

  it('retries what the real driver throws when nothing listens (server selection after ECONNREFUSED)', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/storefront', { serverSelectionTimeoutMS: 300 });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    await client.close();
    expect(error).to.be.instanceOf(MongoServerSelectionError);
    expect(mongoStartError(error).fatal).to.equal(false);
  });
});
