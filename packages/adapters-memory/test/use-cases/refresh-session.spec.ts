import { describe, it } from 'mocha';
import { expect } from 'chai';
import { REFRESH_TOKEN_TTL_SECONDS, sessionIdOf } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aLoggedInCustomer, aWorld } from './world.js';

describe('RefreshSession', () => {
  it('trades a refresh token for a new pair and rotates it', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    world.clock.advance(60_000);
    const next = await world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken });
    expect(next.refreshToken).to.not.equal(pair.refreshToken);
    expect(sessionIdOf(next.refreshToken)).to.equal(sessionIdOf(pair.refreshToken));
    await world.storefront.authenticate.execute(next.accessToken);
    const session = await world.adapters.sessions.findById(sessionIdOf(pair.refreshToken)!);
    expect(session!.previousTokenHashes).to.have.length(1);
    expect(session!.expiresAt.getTime()).to.equal(world.clock.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  });

  it('revokes the whole session when a rotated refresh token is used again', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    const next = await world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken });
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'invalid_token');
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: next.refreshToken }), 'invalid_token');
    await expectDomainError(world.storefront.authenticate.execute(next.accessToken), 'invalid_token');
    const session = await world.adapters.sessions.findById(sessionIdOf(pair.refreshToken)!);
    expect(session!.revokedAt).to.not.equal(null);
  });

  it('lets only one of two concurrent refreshes with the same token through, and revokes the session', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    const results = await Promise.allSettled([
      world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }),
      world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const session = await world.adapters.sessions.findById(sessionIdOf(pair.refreshToken)!);
    expect(session!.revokedAt).to.not.equal(null);
  });

  it('refuses a malformed, unknown or expired refresh token with invalid_token', async () => {
    const world = aWorld();
    const { pair } = await aLoggedInCustomer(world);
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: 'not-a-token' }), 'invalid_token');
    const forged = `${sessionIdOf(pair.refreshToken)!}.${'0'.repeat(43)}`;
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: forged }), 'invalid_token');
    world.clock.advance(REFRESH_TOKEN_TTL_SECONDS * 1000);
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'invalid_token');
  });

  it('refuses a missing refresh token with validation_failed', async () => {
    const world = aWorld();
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: undefined }), 'validation_failed');
  });

  it('refuses a disabled customer with account_disabled', async () => {
    const world = aWorld();
    const { pair, email } = await aLoggedInCustomer(world);
    await world.storefront.setCustomerDisabled.execute({ email, disabled: true });
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'account_disabled');
  });
});
