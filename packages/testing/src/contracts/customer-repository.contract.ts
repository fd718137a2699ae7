/** What every CustomerRepository must do. Each test uses its own fresh emails and ids. */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError, type CustomerRepository } from '@storefront/domain';
import { expectDomainError } from '../assertions.js';
import { aCustomer } from '../builders.js';

export function describeCustomerRepositoryContract(name: string, factory: () => Promise<CustomerRepository>): void {
  describe(`${name} (CustomerRepository contract)`, () => {
    it('finds a created customer by email and by id', async () => {
      const customers = await factory();
      const customer = aCustomer();
      await customers.create(customer);
      expect(await customers.findByEmail(customer.email)).to.deep.equal(customer);
      expect(await customers.findById(customer.customerId)).to.deep.equal(customer);
    });

    it('returns null for an unknown email or id', async () => {
      const customers = await factory();
      expect(await customers.findByEmail(aCustomer().email)).to.equal(null);
      expect(await customers.findById(aCustomer().customerId)).to.equal(null);
    });

    it('rejects a second customer with a taken email with a conflict and keeps the first', async () => {
      const customers = await factory();
      const first = aCustomer();
      await customers.create(first);
      const second = aCustomer({ email: first.email, name: 'Someone Else' });
      await expectDomainError(customers.create(second), 'conflict');
      expect(await customers.findByEmail(first.email)).to.deep.equal(first);
      expect(await customers.findById(second.customerId)).to.equal(null);
    });

    it('lets exactly one of 20 concurrent sign-ups with one email succeed', async () => {
      const customers = await factory();
      // Normalising the address as typed (trimmed, lower-cased) is the domain's job: the store gets it so.
      const email = aCustomer().email;
      const candidates = Array.from({ length: 20 }, () => aCustomer({ email }));
      const results = await Promise.allSettled(candidates.map((candidate) => customers.create(candidate)));
      const winners = candidates.filter((_, i) => results[i]!.status === 'fulfilled');
      expect(winners).to.have.length(1);
      for (const result of results) {
        if (result.status === 'rejected') expect(isDomainError(result.reason, 'conflict'), String(result.reason)).to.equal(true);
      }
      expect(await customers.findByEmail(email)).to.deep.equal(winners[0]);
      const losers = candidates.filter((candidate) => candidate !== winners[0]);
      for (const loser of losers) expect(await customers.findById(loser.customerId)).to.equal(null);
    });

    it('disables and re-enables a customer by email', async () => {
      const customers = await factory();
      const customer = aCustomer();
      await customers.create(customer);
      expect(await customers.setDisabled(customer.email, true)).to.equal(true);
      expect((await customers.findById(customer.customerId))!.disabled).to.equal(true);
      expect((await customers.findByEmail(customer.email))!.disabled).to.equal(true);
      expect(await customers.setDisabled(customer.email, false)).to.equal(true);
      expect(await customers.findById(customer.customerId)).to.deep.equal(customer);
    });

    it('returns false when disabling an unknown email', async () => {
      const customers = await factory();
      expect(await customers.setDisabled(aCustomer().email, true)).to.equal(false);
    });

    it('stores the role a customer is created with, and finds it by email and by id', async () => {
      const customers = await factory();
      const staff = aCustomer({ role: 'staff' });
      const customer = aCustomer();
      await customers.create(staff);
      await customers.create(customer);
      expect((await customers.findByEmail(staff.email))!.role).to.equal('staff');
      expect((await customers.findById(staff.customerId))!.role).to.equal('staff');
      expect((await customers.findById(customer.customerId))!.role).to.equal('customer');
    });

    it('changes a role by email, leaving the rest of the account and other accounts as they were', async () => {
      const customers = await factory();
      const customer = aCustomer();
      const other = aCustomer();
      await customers.create(customer);
      await customers.create(other);
      expect(await customers.setRole(customer.email, 'staff')).to.equal(true);
      expect(await customers.findById(customer.customerId)).to.deep.equal({ ...customer, role: 'staff' });
      expect(await customers.findByEmail(customer.email)).to.deep.equal({ ...customer, role: 'staff' });
      expect(await customers.findById(other.customerId)).to.deep.equal(other);
      expect(await customers.setRole(customer.email, 'customer')).to.equal(true);
      expect(await customers.findById(customer.customerId)).to.deep.equal(customer);
    });

    it('returns false when setting the role of an unknown email, and creates nobody', async () => {
      const customers = await factory();
      const stranger = aCustomer();
      expect(await customers.setRole(stranger.email, 'staff')).to.equal(false);
      expect(await customers.findByEmail(stranger.email)).to.equal(null);
    });

    it('replaces the password hash only while it is still the expected one (compare-and-set)', async () => {
      const customers = await factory();
      const customer = aCustomer();
      await customers.create(customer);
      expect(await customers.updatePasswordHash(customer.customerId, customer.passwordHash, 'rehashed-1')).to.equal(true);
      expect(await customers.findByEmail(customer.email)).to.deep.equal({ ...customer, passwordHash: 'rehashed-1' });
      // A second re-hash from the same stale read changes nothing.
      expect(await customers.updatePasswordHash(customer.customerId, customer.passwordHash, 'rehashed-2')).to.equal(false);
      expect((await customers.findById(customer.customerId))!.passwordHash).to.equal('rehashed-1');
    });

    it('returns false when re-hashing an unknown customer, and creates nobody', async () => {
      const customers = await factory();
      const stranger = aCustomer();
      expect(await customers.updatePasswordHash(stranger.customerId, stranger.passwordHash, 'rehashed')).to.equal(false);
      expect(await customers.findById(stranger.customerId)).to.equal(null);
    });

    it('deletes a customer: gone by id and by email, and other accounts stay', async () => {
      const customers = await factory();
      const customer = aCustomer();
      const other = aCustomer();
      await customers.create(customer);
      await customers.create(other);
      expect(await customers.delete(customer.customerId)).to.equal(true);
      expect(await customers.findById(customer.customerId)).to.equal(null);
      expect(await customers.findByEmail(customer.email)).to.equal(null);
      expect(await customers.setDisabled(customer.email, true)).to.equal(false);
      expect(await customers.findById(other.customerId)).to.deep.equal(other);
    });

    it('frees the email of a deleted customer for a new sign-up', async () => {
      const customers = await factory();
      const erased = aCustomer();
      await customers.create(erased);
      await customers.delete(erased.customerId);
      const again = aCustomer({ email: erased.email, name: 'Back Again' });
      await customers.create(again);
      expect(await customers.findByEmail(erased.email)).to.deep.equal(again);
      expect(await customers.findById(erased.customerId)).to.equal(null);
    });

    it('returns false when deleting an unknown or already deleted customer', async () => {
      const customers = await factory();
      expect(await customers.delete(aCustomer().customerId)).to.equal(false);
      const customer = aCustomer();
      await customers.create(customer);
      expect(await customers.delete(customer.customerId)).to.equal(true);
      expect(await customers.delete(customer.customerId)).to.equal(false);
    });

    it('is not changed by edits to the object it was given', async () => {
      const customers = await factory();
      const customer = aCustomer();
      await customers.create(customer);
      const original = customer.createdAt.getTime();
      customer.createdAt.setTime(0);
      (customer as { name: string }).name = 'Tampered';
      const found = await customers.findById(customer.customerId);
      expect(found!.createdAt.getTime()).to.equal(original);
      expect(found!.name).to.equal('Test Customer');
    });
  });
}
