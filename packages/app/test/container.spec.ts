import { describe, it } from 'mocha';
import { expect } from 'chai';
import { generateSigningKey, PasetoTokenService } from '@storefront/adapters-crypto';
import { DomainError, isDomainError } from '@storefront/domain';
import { resolve } from '../src/binding.js';
import { ConfigError, loadConfig, type Env } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { TYPES } from '../src/identifiers.js';
import { recordingLogger, TEST_ENV, WARN } from './helpers.js';

function containerFor(env: Env = {}) {
  const { logger, lines } = recordingLogger();
  return { container: createContainer(loadConfig({ ...TEST_ENV, ...env }), logger), lines };
}

describe('createContainer', () => {
  it('resolves a working Storefront in memory mode', async () => {
    const { container } = containerFor();
    const storefront = resolve(container, TYPES.Storefront);
    // The store check reports down until start-up (server.ts) opens the gate.
    resolve(container, TYPES.StartGate).open();
    expect(await storefront.checkStatus.execute()).to.deep.equal({ status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } });
    await storefront.registerCustomer.execute({ email: 'dana@example.com', name: 'Dana', password: 'dana-password' });
    const pair = await storefront.login.execute({ email: 'dana@example.com', password: 'dana-password', client: '127.0.0.1' });
    const caller = await storefront.authenticate.execute(pair.accessToken);
    expect(caller.customer.email).to.equal('dana@example.com');
  });

  it('checks the signature of an access token once while the session and account are looked up on every request', async () => {
    const { container } = containerFor();
    const { tokens } = resolve(container, TYPES.CryptoAdapters);
    const verify = tokens.verify.bind(tokens);
    let signatureChecks = 0;
    tokens.verify = (token) => ((signatureChecks += 1), verify(token));
    const storefront = resolve(container, TYPES.Storefront);
    await storefront.registerCustomer.execute({ email: 'gus@example.com', name: 'Gus', password: 'gus-password' });
    const pair = await storefront.login.execute({ email: 'gus@example.com', password: 'gus-password', client: '127.0.0.1' });
    for (let i = 0; i < 3; i++) await storefront.authenticate.execute(pair.accessToken);
    expect(signatureChecks).to.equal(1);
    await storefront.setCustomerDisabled.execute({ email: 'gus@example.com', disabled: true });
    const refused = await storefront.authenticate.execute(pair.accessToken).then(() => null, (error: unknown) => error);
    expect(isDomainError(refused, 'account_disabled')).to.equal(true);
  });

  it('builds every service once', () => {
    const { container } = containerFor();
    expect(resolve(container, TYPES.Storefront)).to.equal(resolve(container, TYPES.Storefront));
    expect(resolve(container, TYPES.HttpApp)).to.equal(resolve(container, TYPES.HttpApp));
    const memory = resolve(container, TYPES.MemoryAdapters);
    expect(resolve(container, TYPES.MenuRepository)).to.equal(memory.menu);
    expect(resolve(container, TYPES.RateLimiter)).to.equal(resolve(container, TYPES.RateLimiter));
    expect(resolve(container, TYPES.PasswordHasher)).to.equal(resolve(container, TYPES.CryptoAdapters).hasher);
  });

  it('gives every container its own database', async () => {
    const first = resolve(containerFor().container, TYPES.Storefront);
    const second = resolve(containerFor().container, TYPES.Storefront);
    await first.registerCustomer.execute({ email: 'erin@example.com', name: 'Erin', password: 'erin-password' });
    const error = await second.login
      .execute({ email: 'erin@example.com', password: 'erin-password', client: '127.0.0.1' })
      .then(() => null, (e: unknown) => e);
    expect(isDomainError(error, 'invalid_credentials')).to.equal(true);
  });

  it('applies the scrypt settings and the rate limit of the configuration', () => {
    const { container } = containerFor({
      SCRYPT_LOG_N: '11',
      SCRYPT_MAX_CONCURRENCY: '3',
      SCRYPT_MAX_QUEUE: '5',
      SCRYPT_MAX_WAIT_MS: '250',
      RATE_LIMIT_MAX: '7',
      RATE_LIMIT_WINDOW_SECONDS: '9',
    });
    const { hasher } = resolve(container, TYPES.CryptoAdapters);
    expect(hasher.cost).to.deep.equal({ logN: 11, r: 8, p: 1 });
    expect([hasher.maxConcurrency, hasher.maxQueue, hasher.maxWaitMs]).to.deep.equal([3, 5, 250]);
    expect(resolve(container, TYPES.Storefront).getRateLimitStatus.policy).to.deep.equal({ name: 'default', limit: 7, windowSeconds: 9 });
  });

  it('signs with TOKEN_SECRET_KEY when it is set', async () => {
    const key = generateSigningKey();
    const { container, lines } = containerFor({ TOKEN_SECRET_KEY: key });
    const { tokens } = resolve(container, TYPES.CryptoAdapters);
    expect(await tokens.currentKeyId()).to.equal(await new PasetoTokenService(key).currentKeyId());
    expect(lines.filter((line) => line.level === WARN)).to.deep.equal([]);
  });

  it('verifies with the keys of TOKEN_PREVIOUS_KEYS, the old name of TOKEN_VERIFY_KEYS, and says to rename it', async () => {
    const previous = generateSigningKey();
    const { container, lines } = containerFor({ TOKEN_SECRET_KEY: generateSigningKey(), TOKEN_PREVIOUS_KEYS: previous });
    const token = await new PasetoTokenService(previous).issue({ sub: 'cus_a', sid: 'ses_a' }, 60);
    expect(await resolve(container, TYPES.CryptoAdapters).tokens.verify(token)).to.include({ sub: 'cus_a' });
    expect(lines.filter((line) => line.level === WARN).map((line) => line.msg)).to.deep.equal([
      'TOKEN_PREVIOUS_KEYS is the old name of TOKEN_VERIFY_KEYS: its keys are used; rename the variable',
    ]);
  });

  it('generates an ephemeral token key, with a warning, when TOKEN_SECRET_KEY is not set', async () => {
    const { container, lines } = containerFor();
    await resolve(container, TYPES.CryptoAdapters).tokens.ready();
    expect(lines.filter((line) => line.level === WARN).map((line) => line.msg)).to.deep.equal([
      'TOKEN_SECRET_KEY is not set: using an ephemeral token key; tokens will not survive a restart',
    ]);
  });

  it('builds the mongo database without waiting for MongoDB: its ports fail fast with database_unavailable until it is up', async () => {
    const { logger } = recordingLogger();
    const config = loadConfig({ ...TEST_ENV, STOREFRONT_STORE: 'mongo', MONGODB_URI: 'mongodb://127.0.0.1:1/storefront', TOKEN_SECRET_KEY: generateSigningKey() });
    const container = createContainer(config, logger);
    try {
      const storefront = resolve(container, TYPES.Storefront);
      const failure = await storefront.listMenu.execute().then(() => null, (error: unknown) => error);
      expect(failure).to.be.instanceOf(DomainError).with.property('code', 'database_unavailable');
      expect(await storefront.checkStatus.execute()).to.deep.equal({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
    } finally {
      await container.unbindAllAsync();
    }
  });
});
