import { describe, it } from 'mocha';
import { expect } from 'chai';
import { ACCESS_TOKEN_TTL_SECONDS } from '@storefront/domain';
import { expectDomainError } from '@storefront/testing';
import { FakeTokenService } from './fakes.js';
import { aLoggedInCustomer, aWorld } from './world.js';

describe('Authenticate', () => {
  it('resolves the caller of a valid access token', async () => {
    const world = aWorld();
    const { pair, profile } = await aLoggedInCustomer(world);
    const caller = await world.storefront.authenticate.execute(pair.accessToken);
    expect(caller.customer.customerId).to.equal(profile.customerId);
    expect(caller.claims.sub).to.equal(profile.customerId);
    expect(world.storefront.getCurrentCustomer.execute(caller)).to.deep.equal(profile);
  });

  it('refuses the token of a session that was logged out with invalid_token', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    const caller = await world.storefront.authenticate.execute(pair.accessToken);
    await world.storefront.logout.execute(caller);
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'invalid_token');
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'invalid_token');
  });

  it('refuses the token of a customer disabled after login with account_disabled', async () => {
    const world = aWorld();
    const { pair, email } = await aLoggedInCustomer(world);
    await world.storefront.setCustomerDisabled.execute({ email, disabled: true });
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'account_disabled');
  });

  it('passes on the token service verdict for an expired or garbled token', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    await expectDomainError(world.storefront.authenticate.execute('garbage'), 'invalid_token');
    world.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000);
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'token_expired');
  });

  it('refuses a token whose session belongs to another customer', async () => {
    const world = aWorld();
    const dana = await aLoggedInCustomer(world);
    const erin = await aLoggedInCustomer(world, 'erin@example.com', 'erin-password');
    const danaClaims = (await world.storefront.authenticate.execute(dana.pair.accessToken)).claims;
    const erinClaims = (await world.storefront.authenticate.execute(erin.pair.accessToken)).claims;
    const tokens = new FakeTokenService(world.clock);
    const mixed = await tokens.issue({ sub: danaClaims.sub, sid: erinClaims.sid }, 60);
    await expectDomainError(world.storefront.authenticate.execute(mixed), 'invalid_token');
  });
});
