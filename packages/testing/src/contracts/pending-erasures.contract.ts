/** What every PendingErasures must do, over the accounts of its CustomerRepository. */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { CustomerRepository, PendingErasures } from '@storefront/domain';
import { expectDomainError } from '../assertions.js';
import { aCustomer } from '../builders.js';

/** The marks, and the accounts they are kept on. */
export interface ErasureMarkStores {
  readonly customers: CustomerRepository;
  readonly pendingErasures: PendingErasures;
}

export function describePendingErasuresContract(name: string, factory: () => Promise<ErasureMarkStores>): void {
  describe(`${name} (PendingErasures contract)`, () => {
    it('marks an account for erasure: gone by id and by email, listed as pending until deleted', async () => {
      const { customers, pendingErasures: erasures } = await factory();
      const customer = aCustomer();
      const other = aCustomer();
      await customers.create(customer);
      await customers.create(other);
      expect(await erasures.mark(customer.customerId, new Date())).to.equal(true);
      expect(await customers.findById(customer.customerId)).to.equal(null);
      expect(await customers.findByEmail(customer.email)).to.equal(null);
      expect(await customers.findById(other.customerId)).to.deep.equal(other);
      expect(await erasures.list(1000)).to.include(customer.customerId).and.not.include(other.customerId);
      // Until the record goes, its email stays taken.
      await expectDomainError(customers.create(aCustomer({ email: customer.email })), 'conflict');
      expect(await customers.delete(customer.customerId)).to.equal(true);
      expect(await erasures.list(1000)).not.to.include(customer.customerId);
      await customers.create(aCustomer({ email: customer.email }));
    });

    it('lists pending erasures oldest mark first, at most `limit`, and a second mark keeps the first time', async () => {
      const { customers, pendingErasures: erasures } = await factory();
      const [a, b, c] = [aCustomer(), aCustomer(), aCustomer()];
      for (const customer of [a, b, c]) await customers.create(customer);
      // Long ago, so that no other test's marks come first.
      const at = (day: number) => new Date(Date.UTC(1990, 0, day));
      await erasures.mark(c!.customerId, at(3));
      await erasures.mark(a!.customerId, at(2));
      await erasures.mark(b!.customerId, at(1));
      expect(await erasures.mark(b!.customerId, at(4))).to.equal(true);
      expect(await erasures.list(2)).to.deep.equal([b!.customerId, a!.customerId]);
      expect((await erasures.list(3))[2]).to.equal(c!.customerId);
      for (const customer of [a, b, c]) await customers.delete(customer!.customerId);
      const left = await erasures.list(1000);
      for (const customer of [a, b, c]) expect(left).not.to.include(customer!.customerId);
    });

    it('returns false when marking an unknown or deleted customer for erasure, and creates nobody', async () => {
      const { customers, pendingErasures: erasures } = await factory();
      const unknown = aCustomer();
      expect(await erasures.mark(unknown.customerId, new Date())).to.equal(false);
      expect(await erasures.list(1000)).not.to.include(unknown.customerId);
      expect(await customers.findById(unknown.customerId)).to.equal(null);
    });
  });
}
