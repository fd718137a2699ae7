import { aCustomer, describeCustomerRepositoryContract, describePendingErasuresContract, expectDomainError } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresCustomerRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeCustomerRepositoryContract('PostgresCustomerRepository', async () => adapters().customers);
  describePendingErasuresContract('PostgresPendingErasures', async () => adapters());

  it('holds an email unique in any letter case, even one written to the store unnormalised', async () => {
    const { customers } = adapters();
    const first = aCustomer({ email: `Ann.${Date.now()}@Example.COM` });
    await customers.create(first);
    await expectDomainError(customers.create(aCustomer({ email: first.email.toLowerCase() })), 'conflict');
    expect(await customers.findByEmail(first.email.toLowerCase())).to.deep.equal(first);
  });
});
