/**
 * The account routes called without a socket: sign-up, password reset and erasure over a real
 * storefront on the memory adapters, with a mailer that keeps what it is given.
 */
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters, seedDemoData } from '@storefront/adapters-memory';
import type { Caller, Storefront } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';
import { createStorefront, isDomainError } from '@storefront/domain';
import { rejectionOf } from '@storefront/testing';
import { expect } from 'chai';
import { beforeEach, describe, it } from 'mocha';
import { headerValue } from '../src/reply.js';
import type { Route } from '../src/route.js';
import { accountRoutes } from '../src/routes/account.js';
import { authRoutes } from '../src/routes/auth.js';
import { dispatch } from '../src/dispatch.js';
import { anExchange, bodyOf, routeOf } from './exchanges.js';

const RESET_URL = 'https://shop.example/reset?token=';

describe('account route handlers, called without a socket', () => {
  let storefront: Storefront;
  let sent: MailMessage[];
  /** Customers whose streams a handler ended (EventStreams.endCustomer). */
  let ended: string[];
  let routes: Route[];

  beforeEach(async () => {
    sent = [];
    ended = [];
    const mailer = { send: async (message: MailMessage) => void sent.push(message) };
    storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }), mailer }, { passwordResetUrl: RESET_URL });
    await seedDemoData(storefront);
    const streams = { endSession: () => undefined, endCustomer: (customerId: string) => void ended.push(customerId) };
    routes = [...authRoutes(storefront, streams), ...accountRoutes(storefront, streams)];
  });

  const handle = (path: string, exchange: Parameters<typeof anExchange>[0]) => dispatch(routeOf(routes, 'POST', path), anExchange({ method: 'POST', ...exchange }));
  const refusal = (path: string, exchange: Parameters<typeof anExchange>[0]) => rejectionOf(Promise.resolve().then(() => handle(path, exchange)));

  async function callerOf(accessToken: string): Promise<Caller> {
    return storefront.authenticate.execute(accessToken);
  }

  it('POST /api/auth/register answers 201 with the token pair as login does, uncacheable, logged in as a customer', async () => {
    const reply = await handle('/api/auth/register', { body: { email: ' Erin@Example.com ', password: 'erin-password', name: 'Erin' } });
    expect(reply.status).to.equal(201);
    expect(headerValue(reply.headers, 'Cache-Control')).to.equal('no-store');
    expect(headerValue(reply.headers, 'X-Refresh-Token-Expires-In')).to.equal('2592000');
    const pair = bodyOf(reply) as Record<string, unknown>;
    expect(Object.keys(pair).sort()).to.deep.equal(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    const caller = await callerOf(pair['access_token'] as string);
    expect(caller.customer).to.include({ email: 'erin@example.com', name: 'Erin', role: 'customer' });
  });

  it('POST /api/auth/register refuses a body that is not an object, and a taken email with email_taken', async () => {
    const notObject = await refusal('/api/auth/register', { body: ['erin@example.com'] });
    expect((notObject as { details: unknown }).details).to.deep.equal([{ path: '', message: 'must be an object with email, password, name' }]);
    const taken = await refusal('/api/auth/register', { body: { email: 'ALICE@example.com', password: 'another-password', name: 'Alice' } });
    expect(isDomainError(taken, 'email_taken')).to.equal(true);
  });

  it('POST /api/auth/password-reset answers 202 {} for a known and an unknown email alike, and mails the known one only', async () => {
    const known = await handle('/api/auth/password-reset', { body: { email: 'alice@example.com' } });
    const unknown = await handle('/api/auth/password-reset', { body: { email: 'nobody@example.com' } });
    for (const reply of [known, unknown]) {
      expect(reply.status).to.equal(202);
      expect(bodyOf(reply)).to.deep.equal({});
      expect(headerValue(reply.headers, 'Cache-Control')).to.equal('no-store');
    }
    await storefront.background.settled();
    expect(sent.map((message) => message.to)).to.deep.equal(['alice@example.com']);
    expect(sent[0]!.text).to.contain(RESET_URL);
  });

  it('POST /api/auth/password-reset/confirm answers 204 and ends every live stream of the account', async () => {
    const alice = await callerOf((await storefront.login.execute({ email: 'alice@example.com', password: 'alice-password', client: 't' })).accessToken);
    await handle('/api/auth/password-reset', { body: { email: 'alice@example.com' } });
    await storefront.background.settled();
    const token = new URL(/https:\S+/.exec(sent[0]!.text)![0]).searchParams.get('token')!;
    const reply = await handle('/api/auth/password-reset/confirm', { body: { token, password: 'a-brand-new-password' } });
    expect(reply.status).to.equal(204);
    expect(ended).to.deep.equal([alice.customer.customerId]);
    expect(isDomainError(await refusal('/api/auth/password-reset/confirm', { body: { token, password: 'a-brand-new-password' } }), 'invalid_reset_token')).to.equal(true);
  });

  it('POST /api/me/delete needs a caller and the right password, then answers 204 and ends the account\'s streams', async () => {
    const pair = await storefront.signUp.execute({ email: 'gone@example.com', password: 'gone-password', name: 'Gone', client: 't' });
    const caller = await callerOf(pair.accessToken);
    expect(isDomainError(await refusal('/api/me/delete', { body: { password: 'gone-password' } }), 'unauthorized')).to.equal(true);
    expect(isDomainError(await refusal('/api/me/delete', { caller, body: { password: 'not-the-password' } }), 'invalid_credentials')).to.equal(true);
    expect(isDomainError(await refusal('/api/me/delete', { caller, body: 'gone-password' }), 'validation_failed')).to.equal(true);
    expect(ended).to.deep.equal([]);
    const reply = await handle('/api/me/delete', { caller, body: { password: 'gone-password' } });
    expect(reply.status).to.equal(204);
    expect(ended).to.deep.equal([caller.customer.customerId]);
    expect(isDomainError(await rejectionOf(storefront.authenticate.execute(pair.accessToken)))).to.equal(true);
  });
});
