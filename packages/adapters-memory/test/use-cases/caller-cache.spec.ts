/**
 * The caller cache (StorefrontOptions.callerCache) as two instances on one shared store see it:
 * every revocation made on an instance is refused there at once, and on the other instance within
 * the cache's time-to-live (1 s here, DECISIONS allow 2 s). The memory adapters stand in for the
 * shared database; the clock is a FakeClock, so "within 1 s" is exact.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Mailer, Storefront } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';
import { createStorefront } from '@storefront/domain';
import { expectDomainError, FakeClock } from '@storefront/testing';
import { createMemoryAdapters } from '../../src/index.js';
import { cryptoOn } from './world.js';

const TTL_MS = 1000;
const LINK = 'https://shop.example/reset?token=';
const CLIENT = '198.51.100.20';
const EMAIL = 'erin@example.com';
const PASSWORD = 'erin-password';

async function twoInstances() {
  const clock = new FakeClock();
  const adapters = createMemoryAdapters({ clock });
  const crypto = cryptoOn(clock);
  const sent: MailMessage[] = [];
  const mailer: Mailer = { send: async (message) => void sent.push(message) };
  const instance = (): Storefront =>
    createStorefront({ ...adapters, hasher: crypto.hasher, tokens: crypto.tokens, clock, mailer }, { callerCache: { ttlMs: TTL_MS }, passwordResetUrl: LINK });
  const [here, there] = [instance(), instance()];
  await here.registerCustomer.execute({ email: EMAIL, name: 'Erin', password: PASSWORD });
  const { accessToken } = await here.login.execute({ email: EMAIL, password: PASSWORD, client: CLIENT });
  // Both instances have the caller in their cache.
  await here.authenticate.execute(accessToken);
  await there.authenticate.execute(accessToken);
  return { clock, adapters, here, there, accessToken, sent };
}

/** Refused at once on `here`; still served by `there` until its entry is TTL_MS old, then refused. */
async function expectRevoked(world: Awaited<ReturnType<typeof twoInstances>>, code: 'invalid_token' | 'account_disabled') {
  await expectDomainError(world.here.authenticate.execute(world.accessToken), code);
  world.clock.advance(TTL_MS - 1);
  await world.there.authenticate.execute(world.accessToken);
  world.clock.advance(1);
  await expectDomainError(world.there.authenticate.execute(world.accessToken), code);
}

describe('Caller cache: revocation at once here, within the time-to-live elsewhere', () => {
  it('serves a live token from the cache without reading the session store', async () => {
    const world = await twoInstances();
    let reads = 0;
    const findById = world.adapters.sessions.findById.bind(world.adapters.sessions);
    world.adapters.sessions.findById = (id) => ((reads += 1), findById(id));
    for (let i = 0; i < 5; i++) await world.here.authenticate.execute(world.accessToken);
    expect(reads).to.equal(0);
  });

  it('refuses a logged-out token', async () => {
    const world = await twoInstances();
    await world.here.logout.execute(await world.here.authenticate.execute(world.accessToken));
    await expectRevoked(world, 'invalid_token');
  });

  it('refuses every token of an account whose password was reset', async () => {
    const world = await twoInstances();
    await world.here.requestPasswordReset.execute({ email: EMAIL, client: CLIENT });
    await world.here.background.settled();
    const line = (world.sent.at(-1)?.text ?? '').split('\n').find((l: string) => l.startsWith(LINK))!;
    await world.here.confirmPasswordReset.execute({ token: line.slice(LINK.length), password: 'a-new-password' });
    await expectRevoked(world, 'invalid_token');
  });

  it('refuses the tokens of a disabled account with account_disabled', async () => {
    const world = await twoInstances();
    await world.here.setCustomerDisabled.execute({ email: EMAIL, disabled: true });
    await expectRevoked(world, 'account_disabled');
  });

  it('gives the new role at once on the instance that changed it, and within the time-to-live on the other', async () => {
    const world = await twoInstances();
    await world.here.setCustomerRole.execute({ email: EMAIL, role: 'staff' });
    expect((await world.here.authenticate.execute(world.accessToken)).customer.role).to.equal('staff');
    world.clock.advance(TTL_MS - 1);
    expect((await world.there.authenticate.execute(world.accessToken)).customer.role).to.equal('customer');
    world.clock.advance(1);
    expect((await world.there.authenticate.execute(world.accessToken)).customer.role).to.equal('staff');
  });

  it('refuses the tokens of an erased account', async () => {
    const world = await twoInstances();
    const caller = await world.here.authenticate.execute(world.accessToken);
    await world.here.eraseAccount.execute({ caller, password: PASSWORD, client: CLIENT });
    await expectRevoked(world, 'invalid_token');
  });
});
