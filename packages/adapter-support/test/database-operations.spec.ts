import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, isDomainError } from '@storefront/domain';
import { databaseOperations } from '../src/index.js';

/** A driver whose only outage is a refused connection. */
const refused = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ECONNREFUSED';
/** Its busy pool: no connection came free in time. */
const poolBusy = (error: unknown): boolean => (error as Error | null)?.message === 'no free connection';
const { databaseOperation, toDomainError } = databaseOperations(refused, poolBusy);

async function failureOf(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('the operation did not fail');
}

describe('databaseOperations', () => {
  it("answers what the operation resolves to", async () => {
    expect(await databaseOperation(async () => 42)).to.equal(42);
  });

  it("fails with database_unavailable for what the adapter's classifier calls an outage, the driver's error kept as cause and out of the message", async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = await failureOf(() => databaseOperation(async () => Promise.reject(outage)));
    expect(isDomainError(error, 'database_unavailable')).to.equal(true);
    expect((error as DomainError).cause).to.equal(outage);
    expect((error as DomainError).message).to.equal('The database is unavailable.');
    expect((error as DomainError).message).not.to.include('5432');
  });

  it('fails with service_unavailable and a retry hint of 1 s for a busy pool, the driver\'s error kept as cause', async () => {
    const busy = new Error('no free connection');
    const error = await failureOf(() => databaseOperation(async () => Promise.reject(busy)));
    expect(isDomainError(error, 'service_unavailable')).to.equal(true);
    expect((error as DomainError).retryAfterSeconds).to.equal(1);
    expect((error as DomainError).cause).to.equal(busy);
    expect((error as DomainError).message).not.to.include('connection');
    expect(isDomainError(databaseOperations(refused).toDomainError(busy)), 'without a busy classifier it is no domain error').to.equal(false);
  });

  it('rethrows anything else as it is: a duplicate key is the repository\'s to read, a domain error stays itself', async () => {
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const domain = new DomainError('conflict', 'Already there.');
    expect(await failureOf(() => databaseOperation(async () => Promise.reject(duplicate)))).to.equal(duplicate);
    expect(await failureOf(() => databaseOperation(async () => Promise.reject(domain)))).to.equal(domain);
    expect(toDomainError('not even an error')).to.equal('not even an error');
  });
});
