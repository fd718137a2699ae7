/**
 * Login keeps every account at the current hash cost: a correct password stored at another cost is
 * hashed again (so an unknown email, checked against a dummy of the current cost, costs what a known
 * one does), and nothing else triggers or blocks that. Real scrypt: the cost goes from logN 10 to 11.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { ScryptPasswordHasher } from '@storefront/adapters-crypto';
import { DomainError, type Customer, type CustomerRepository } from '@storefront/domain';
import { expectDomainError } from '@storefront/testing';
import { aWorld, TEST_SCRYPT_LOG_N, type World } from './world.js';

describe('Login re-hashing', () => {
  /** The hasher of the old cost, kept to tell which cost a stored hash has. */
  let oldCost: ScryptPasswordHasher;
  /** The hasher of the raised cost. */
  let newCost: ScryptPasswordHasher;

  async function withDanaAtTheOldCost(): Promise<World> {
    const world = aWorld();
    oldCost = world.hasher.current as ScryptPasswordHasher;
    newCost = new ScryptPasswordHasher({ logN: TEST_SCRYPT_LOG_N + 1 });
    await world.storefront.registerCustomer.execute({ email: 'dana@example.com', name: 'Dana', password: 'dana-password' });
    world.hasher.current = newCost; // the operator raised the cost
    return world;
  }

  const stored = async (world: World): Promise<Customer> => (await world.adapters.customers.findByEmail('dana@example.com'))!;
  const madeBy = (hasher: ScryptPasswordHasher, hash: string): boolean => !hasher.needsRehash(hash);

  it('stores the password at the current cost after a successful login of an account hashed at an older one', async () => {
    const world = await withDanaAtTheOldCost();
    expect(madeBy(oldCost, (await stored(world)).passwordHash), 'stored at the old cost').to.equal(true);
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(madeBy(newCost, (await stored(world)).passwordHash), 'stored at the new cost').to.equal(true);
    // The new hash works, and the next login has nothing to re-hash.
    const hashes = world.hasher.hashes;
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(world.hasher.hashes).to.equal(hashes);
  });

  it('never re-hashes on a wrong password or for a disabled account', async () => {
    const world = await withDanaAtTheOldCost();
    const before = (await stored(world)).passwordHash;
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'wrong-password', client: 'ip' }), 'invalid_credentials');
    await world.storefront.setCustomerDisabled.execute({ email: 'dana@example.com', disabled: true });
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' }), 'account_disabled');
    expect((await stored(world)).passwordHash).to.equal(before);
  });

  it('checks an unknown email against a dummy made at the current cost', async () => {
    const world = await withDanaAtTheOldCost();
    const verified: string[] = [];
    const verify = world.hasher.verify.bind(world.hasher);
    world.hasher.verify = async (hash, password) => (verified.push(hash), verify(hash, password));
    await expectDomainError(world.storefront.login.execute({ email: 'nobody@example.com', password: 'whatever-1', client: 'ip' }), 'invalid_credentials');
    expect(verified).to.have.length(1);
    expect(madeBy(newCost, verified[0]!), 'the dummy is of the current cost').to.equal(true);
  });

  it('still logs in when the re-hash cannot be stored, and tries again at the next login', async () => {
    const world = await withDanaAtTheOldCost();
    const customers = world.adapters.customers as CustomerRepository;
    const update = customers.updatePasswordHash.bind(customers);
    let failures = 1;
    customers.updatePasswordHash = async (...args) => {
      if (failures-- > 0) throw new DomainError('database_unavailable', 'The database is unavailable.');
      return update(...args);
    };
    const pair = await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(pair.accessToken).to.be.a('string');
    expect(madeBy(oldCost, (await stored(world)).passwordHash), 'still at the old cost').to.equal(true);
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect(madeBy(newCost, (await stored(world)).passwordHash), 'now at the new cost').to.equal(true);
  });

  it('never overwrites a hash that changed since it was read (compare-and-set)', async () => {
    const world = await withDanaAtTheOldCost();
    const customers = world.adapters.customers;
    const find = customers.findByEmail.bind(customers);
    const changed = await newCost.hash('a-password-set-meanwhile');
    // Between the read and the re-hash, someone else stores another hash (e.g. a password change).
    customers.findByEmail = async (email) => {
      const found = await find(email);
      if (found !== null) await customers.updatePasswordHash(found.customerId, found.passwordHash, changed);
      return found;
    };
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' });
    expect((await find('dana@example.com'))!.passwordHash).to.equal(changed);
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
