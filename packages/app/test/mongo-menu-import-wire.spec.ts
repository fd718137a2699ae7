/**
 * A menu import (one bulkWrite of upserts) whose connection drops mid-batch, through the real
 * driver: the driver reports it as MongoBulkWriteError wrapping the MongoNetworkError, not as the
 * network error itself, and the import must fail like every other store failure, with
 * `database_unavailable`. A standalone server: no retryable-write label to fall back on.
 */
import type { MongoAdapters } from '@storefront/adapters-mongo';
import { aProductDraft, expectDomainError } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { MongoBulkWriteError, MongoNetworkError, type MongoClient } from 'mongodb';
import { productionAdaptersOn } from './mongo-wire-adapters.js';
import { startFakeMongod, type FakeMongod } from './mongo-wire-fake.js';

describe('A menu import whose connection to MongoDB drops mid-batch', () => {
  let fake: FakeMongod;
  let client: MongoClient;
  let adapters: MongoAdapters;

  before(async () => {
    fake = await startFakeMongod();
    ({ client, adapters } = await productionAdaptersOn(fake, 'menu'));
  });
  after(async () => {
    await client.close();
    await fake.close();
  });

  it('fails with database_unavailable, the driver\'s MongoBulkWriteError (wrapping the network error) kept as its cause', async () => {
    fake.answer = (command) => (command.name === 'update' && command.body['update'] === 'products' ? 'hang-up' : undefined);
    const error = (await expectDomainError(adapters.menu.upsertByName([aProductDraft(), aProductDraft()]), 'database_unavailable')) as Error;
    expect(error.cause).to.be.instanceOf(MongoBulkWriteError);
    expect((error.cause as MongoBulkWriteError).errorResponse).to.be.instanceOf(MongoNetworkError);
  });
});
