import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError } from '@storefront/domain';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aWorld } from './world.js';

describe('Login', () => {
  async function withDana() {
    const world = aWorld();
    await world.storefront.registerCustomer.execute({ email: 'dana@example.com', name: 'Dana', password: 'dana-password' });
    return world;
  }

  it('issues a token pair for the right email and password', async () => {
    const world = await withDana();
    const pair = await world.storefront.login.execute({ email: '  Dana@Example.COM ', password: 'dana-password', client: 'ip' });
    expect(pair).to.include({ tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, refreshExpiresIn: REFRESH_TOKEN_TTL_SECONDS });
    const caller = await world.storefront.authenticate.execute(pair.accessToken);
    expect(caller.customer.email).to.equal('dana@example.com');
  });

  it('gives an unknown email and a wrong password the same error at the same cost', async () => {
    const world = await withDana();
    const before = world.hasher.verifications;
    const wrongPassword = await expectDomainError(
      world.storefront.login.execute({ email: 'dana@example.com', password: 'wrong-password', client: 'ip' }),
      'invalid_credentials',
    );
    const afterWrong = world.hasher.verifications;
    const unknownEmail = await expectDomainError(
      world.storefront.login.execute({ email: 'nobody@example.com', password: 'dana-password', client: 'ip' }),
      'invalid_credentials',
    );
    expect((unknownEmail as DomainError).message).to.equal((wrongPassword as DomainError).message);
    expect(afterWrong - before).to.equal(1);
    expect(world.hasher.verifications - afterWrong).to.equal(1);
  });

  it('tells a disabled customer so only after a correct password', async () => {
    const world = await withDana();
    await world.storefront.setCustomerDisabled.execute({ email: 'dana@example.com', disabled: true });
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'nope-nope', client: 'ip' }), 'invalid_credentials');
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip' }), 'account_disabled');
  });

  it('refuses a missing or non-string email or password with validation_failed', async () => {
    const world = await withDana();
    await expectDomainError(world.storefront.login.execute({ email: undefined, password: 'x', client: 'ip' }), 'validation_failed');
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 42, client: 'ip' }), 'validation_failed');
  });

  it('lets the right password in after 10 wrong ones from 10 other clients: the per-email limit is no lock-out', async () => {
    const world = await withDana();
    for (let i = 0; i < 10; i++) {
      await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password: 'wrong-password', client: `ip-${i}` }), 'invalid_credentials');
    }
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: 'ip-new' });
  });

  it('rate-limits attempts per email from any clients at 10 times the per-client limit, with a retry-after', async () => {
    const world = await withDana();
    const attempt = (client: string) => world.storefront.login.execute({ email: 'dana@example.com', password: 'wrong-password', client });
    for (let i = 0; i < 100; i++) await expectDomainError(attempt(`ip-${i % 10}-${Math.floor(i / 10)}`), 'invalid_credentials');
    const limited = await expectDomainError(attempt('ip-new'), 'rate_limited');
    expect((limited as DomainError).retryAfterSeconds).to.be.at.least(1);
    world.clock.advance(61_000);
    await expectDomainError(attempt('ip-new'), 'invalid_credentials');
  });
});
