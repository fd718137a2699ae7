import { DomainError, isDomainError } from '@storefront/domain';
import { aCustomer, expectDomainError } from '@storefront/testing';
import { expect } from 'chai';
import { after, describe, it } from 'mocha';
import { MongoClient, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { createMongoAdapters, MongoCustomerRepository, toDomainError, type CustomerDocument } from '../src/index.js';
import { isDuplicateKey } from '../src/database-errors.js';

describe('store errors', () => {
  describe('toDomainError', () => {
    it('turns a network error into database_unavailable, keeping the driver error as the cause only', () => {
      for (const cause of [new MongoNetworkError('connect ECONNREFUSED 10.1.2.3:27017'), new MongoNetworkTimeoutError('timed out')]) {
        const error = toDomainError(cause);
        expect(isDomainError(error, 'database_unavailable')).to.equal(true);
        expect((error as DomainError).message).to.equal('The database is unavailable.');
        expect((error as DomainError).cause).to.equal(cause);
      }
    });

    it('turns a server error that means "no primary" into database_unavailable', () => {
      const cause = new MongoServerError({ message: 'not primary', code: 10107 });
      expect(isDomainError(toDomainError(cause), 'database_unavailable')).to.equal(true);
    });

    it('leaves a duplicate key, any other error and a domain error as they are', () => {
      const duplicate = new MongoServerError({ message: 'E11000 duplicate key error collection: t.customers index: customers_by_email dup key: { email: "a@b.c" }', code: 11000 });
      const other = new Error('boom');
      const domain = new DomainError('conflict', 'taken');
      expect(toDomainError(duplicate)).to.equal(duplicate);
      expect(toDomainError(other)).to.equal(other);
      expect(toDomainError(domain)).to.equal(domain);
    });
  });

  describe('isDuplicateKey', () => {
    const duplicate = new MongoServerError({ message: 'E11000 duplicate key error collection: t.customers index: customers_by_email dup key: { email: "a@b.c" }', code: 11000 });

    it('recognises E11000 and tells which index it broke', () => {
      expect(isDuplicateKey(duplicate)).to.equal(true);
      expect(isDuplicateKey(duplicate, 'customers_by_email')).to.equal(true);
      expect(isDuplicateKey(duplicate, '_id_')).to.equal(false);
      expect(isDuplicateKey(new MongoServerError({ message: 'other', code: 2 }))).to.equal(false);
      expect(isDuplicateKey(new Error('E11000'))).to.equal(false);
    });
  });

  describe('against a server that never answers', () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/?directConnection=true', { serverSelectionTimeoutMS: 200 });
    after(() => client.close());

    it('makes a repository reject with database_unavailable, the server selection error as its cause', async () => {
      const customers = new MongoCustomerRepository(client.db('storefront_unreachable').collection<CustomerDocument>('customers'));
      const error = await expectDomainError(customers.findById(aCustomer().customerId), 'database_unavailable');
      expect((error as DomainError).cause).to.be.instanceOf(MongoServerSelectionError);
      expect((error as DomainError).message).to.not.include('127.0.0.1');
      await expectDomainError(customers.create(aCustomer()), 'database_unavailable');
    });

    it('makes createMongoAdapters reject with database_unavailable', async () => {
      await expectDomainError(createMongoAdapters({ db: client.db('storefront_unreachable') }), 'database_unavailable');
    });
  });
});
