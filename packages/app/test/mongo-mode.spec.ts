/**
 * The pieces of the suites' mongo mode (mongo-mode.ts) that need no MongoDB: the URI of a server's
 * own database, and the password kept out of what the run prints.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { MongoClient } from 'mongodb';
import { redactUri, withDatabase } from './mongo-mode.js';

describe('mongo mode of the test suites', () => {
  it('puts the server\'s database in the URI, keeping hosts and options, and the authSource the URI implied', () => {
    const cases: Array<[string, string]> = [
      ['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017/db1'],
      ['mongodb://127.0.0.1:27017/', 'mongodb://127.0.0.1:27017/db1'],
      ['mongodb://127.0.0.1:27017/other', 'mongodb://127.0.0.1:27017/db1'],
      ['mongodb://a:1,b:2/other?replicaSet=rs0&w=majority', 'mongodb://a:1,b:2/db1?replicaSet=rs0&w=majority'],
      ['mongodb://a:1/?directConnection=true', 'mongodb://a:1/db1?directConnection=true'],
      // Credentials authenticate against the URI's database unless authSource says otherwise.
      ['mongodb://app:pw@a:1/shop', 'mongodb://app:pw@a:1/db1?authSource=shop'],
      ['mongodb://app:pw@a:1', 'mongodb://app:pw@a:1/db1?authSource=admin'],
      ['mongodb://app:pw@a:1/shop?authSource=users', 'mongodb://app:pw@a:1/db1?authSource=users'],
      ['mongodb+srv://app:pw@cluster0.example.net/shop?retryWrites=true', 'mongodb+srv://app:pw@cluster0.example.net/db1?retryWrites=true&authSource=shop'],
    ];
    for (const [uri, expected] of cases) {
      const result = withDatabase(uri, 'db1');
      expect(result, uri).to.equal(expected);
      if (!uri.startsWith('mongodb+srv')) expect(new MongoClient(result).options.dbName, uri).to.equal('db1');
    }
  });

  it('never prints the password of MONGODB_URI', () => {
    expect(redactUri('mongodb://app:s3cret@a:1,b:2/shop')).to.equal('mongodb://app:***@a:1,b:2/shop');
    expect(redactUri('mongodb://127.0.0.1:27017')).to.equal('mongodb://127.0.0.1:27017');
  });
});
