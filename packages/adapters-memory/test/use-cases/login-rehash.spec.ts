/**
 * Login keeps every account at the current hash cost: a correct password stored at another cost is
 * hashed again (so an unknown email, checked against a dummy of the current cost, costs what a known
 * one does), and nothing else triggers or blocks that.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, type Customer, type CustomerRepository } from '@storefront/domain';
import { expectDomainError } from '@storefront/testing';
import { aWorld, type World } from './world.js';

describe('Login re-hashing', () => {
  async function withDanaAtVersion1(): Promise<World> {
    const world = aWorld();
    await world.storefront.registerCustomer.execute({ email: 'dana@example.com', name: 'Dana', password: 'dana-password' });
    world.hasher.version = 2; // the operator raised the cost
    return world;
  }

  const stored = async (world: World): Promise<Customer> => (await world.adapters.customers.findByEmail('dana@example.com'))!;

  it('stores the password at the current cost after a successful login of an account hashed at an older one', async () => {
    const world = await withDanaAtVersion1();
    expect((await stored(world)).passwordHash).to.match(/^fake-v1\$/);
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect((await stored(world)).passwordHash).to.match(/^fake-v2\$/);
    // The new hash works, and the next login has nothing to re-hash.
    const hashes = world.hasher.hashes;
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(world.hasher.hashes).to.equal(hashes);
  });

  it('never re-hashes on a wrong password or for a disabled account', async () => {
    const world = await withDanaAtVersion1();
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'wrong-password', client: 'ip' }), 'invalid_credentials');
    await world.storefront.setCustomerDisabled.execute({ email: 'dana@example.com', disabled: true });
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' }), 'account_disabled');
    expect((await stored(world)).passwordHash).to.match(/^fake-v1\$/);
  });

  it('checks an unknown email against a dummy made at the current cost', async () => {
    const world = await withDanaAtVersion1();
    const verified: string[] = [];
    const verify = world.hasher.verify.bind(world.hasher);
    world.hasher.verify = async (hash, password) => (verified.push(hash), verify(hash, password));
    await expectDomainError(world.storefront.login.execute({ email: 'nobody@example.com', password: 'whatever-1', client: 'ip' }), 'invalid_credentials');
    expect(verified).to.have.length(1);
    expect(world.hasher.needsRehash(verified[0]!)).to.equal(false);
  });

  it('still logs in when the re-hash cannot be stored, and tries again at the next login', async () => {
    const world = await withDanaAtVersion1();
    const customers = world.adapters.customers as CustomerRepository;
    const update = customers.updatePasswordHash.bind(customers);
    let failures = 1;
    customers.updatePasswordHash = async (...args) => {
      if (failures-- > 0) throw new DomainError('store_unavailable', 'The store is unavailable.');
      return update(...args);
    };
    const pair = await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(pair.accessToken).to.be.a('string');
    expect((await stored(world)).passwordHash).to.match(/^fake-v1\$/);
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect((await stored(world)).passwordHash).to.match(/^fake-v2\$/);
  });

  it('never overwrites a hash that changed since it was read (compare-and-set)', async () => {
    const world = await withDanaAtVersion1();
    const customers = world.adapters.customers;
    const find = customers.findByEmail.bind(customers);
    // Between the read and the re-hash, someone else stores another hash (e.g. a password change).
    customers.findByEmail = async (email) => {
      const found = await find(email);
      if (found !== null) await customers.updatePasswordHash(found.customerId, found.passwordHash, 'fake-v9$changed');
      return found;
    };
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect((await find('dana@example.com'))!.passwordHash).to.equal('fake-v9$changed');
  });
});

describe('Login with a busy hasher', () => {
  it('passes service_unavailable on, and makes the dummy hash again at the next attempt rather than keep the failure', async () => {
    const world = aWorld();
    const hash = world.hasher.hash.bind(world.hasher);
    let busy = true;
    world.hasher.hash = (password) => (busy ? Promise.reject(new DomainError('service_unavailable', 'Busy.', { retryAfterSeconds: 1 })) : hash(password));
    // The first unknown email needs the dummy hash, and the hasher refuses to make it.
    const refused = await expectDomainError(world.storefront.login.execute({ email: 'nobody@example.com', password: 'whatever-1', client: 'ip' }), 'service_unavailable');
    expect((refused as DomainError).retryAfterSeconds).to.equal(1);
    busy = false;
    await expectDomainError(world.storefront.login.execute({ email: 'nobody@example.com', password: 'whatever-1', client: 'ip' }), 'invalid_credentials');
  });
});
