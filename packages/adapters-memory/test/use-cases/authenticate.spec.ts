import { describe, it } from 'mocha';
import { expect } from 'chai';
import { createStorefront, type SessionStore, type TokenService } from '@storefront/domain';
import { ACCESS_TOKEN_TTL_SECONDS } from '@storefront/domain/adapter-kit';
import { CachingTokenService } from '@storefront/adapters-crypto';
import { expectDomainError, FakeClock } from '@storefront/testing';
import { createMemoryAdapters } from '../../src/index.js';
import { aLoggedInCustomer, aWorld, cryptoOn, TOKEN_CLOCK_TOLERANCE_MS } from './world.js';

/** Past an access token's life and the clock skew the token service allows after it. */
const PAST_EXPIRY_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + TOKEN_CLOCK_TOLERANCE_MS + 1000;

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

  it('refuses a token already verified (and cached) once its customer is disabled, and accepts it again when enabled', async () => {
    const world = aWorld();
    const { pair, email } = await aLoggedInCustomer(world);
    await world.storefront.authenticate.execute(pair.accessToken);
    await world.storefront.setCustomerDisabled.execute({ email, disabled: true });
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'account_disabled');
    await world.storefront.setCustomerDisabled.execute({ email, disabled: false });
    expect((await world.storefront.authenticate.execute(pair.accessToken)).customer.disabled).to.equal(false);
  });

  it('checks a token signature once while it lives, but the session and the account on every request', async () => {
    const clock = new FakeClock();
    const adapters = createMemoryAdapters({ clock });
    const { hasher, tokens } = cryptoOn(clock);
    let verifications = 0;
    const counting: TokenService = { issue: (c, ttl) => tokens.issue(c, ttl), verify: (t) => ((verifications += 1), tokens.verify(t)) };
    let sessionLookups = 0;
    const sessions: SessionStore = Object.create(adapters.sessions) as SessionStore;
    sessions.findById = (id) => ((sessionLookups += 1), adapters.sessions.findById(id));
    const storefront = createStorefront({ ...adapters, sessions, hasher, tokens: new CachingTokenService(counting, { clock }), clock });
    await storefront.registerCustomer.execute({ email: 'fay@example.com', name: 'Fay', password: 'fay-password' });
    const pair = await storefront.login.execute({ email: 'fay@example.com', password: 'fay-password', client: '203.0.113.7' });
    for (let i = 0; i < 5; i++) await storefront.authenticate.execute(pair.accessToken);
    expect(verifications).to.equal(1);
    expect(sessionLookups).to.equal(5);
    clock.advance(PAST_EXPIRY_MS);
    await expectDomainError(storefront.authenticate.execute(pair.accessToken), 'token_expired');
    expect(verifications).to.equal(2);
  });

  it('checks every signature when the token service is not behind the cache', async () => {
    const clock = new FakeClock();
    const { hasher, tokens } = cryptoOn(clock);
    let verifications = 0;
    const counting: TokenService = { issue: (c, ttl) => tokens.issue(c, ttl), verify: (t) => ((verifications += 1), tokens.verify(t)) };
    const storefront = createStorefront({ ...createMemoryAdapters({ clock }), hasher, tokens: counting, clock });
    await storefront.registerCustomer.execute({ email: 'fay@example.com', name: 'Fay', password: 'fay-password' });
    const pair = await storefront.login.execute({ email: 'fay@example.com', password: 'fay-password', client: '203.0.113.7' });
    for (let i = 0; i < 3; i++) await storefront.authenticate.execute(pair.accessToken);
    expect(verifications).to.equal(3);
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
    world.clock.advance(PAST_EXPIRY_MS);
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'token_expired');
  });

  it('refuses a token whose session belongs to another customer', async () => {
    const world = aWorld();
    const dana = await aLoggedInCustomer(world);
    const erin = await aLoggedInCustomer(world, 'erin@example.com', 'erin-password');
    const danaClaims = (await world.storefront.authenticate.execute(dana.pair.accessToken)).claims;
    const erinClaims = (await world.storefront.authenticate.execute(erin.pair.accessToken)).claims;
    // Signed with the server's own key: only the session lookup can tell.
    const mixed = await world.tokens.issue({ sub: danaClaims.sub, sid: erinClaims.sid }, 60);
    await expectDomainError(world.storefront.authenticate.execute(mixed), 'invalid_token');
  });
});
