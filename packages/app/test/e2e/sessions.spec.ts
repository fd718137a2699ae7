import { describe, it, before, after } from 'mocha';
import { expect } from 'chai';
import { FakeClock } from '@storefront/testing';
import type { RunningServer } from './support.js';
import { decodeToken, newSigningKey, resign } from './tokens.js';
import {
  ALICE,
  BOB,
  RFC3339_UTC,
  baseOf,
  call,
  expectError,
  expectJson,
  expectUnauthorized,
  expectValidation,
  login,
  newCustomer,
  startServer,
  useServer,
} from './support.js';

function refresh(base: string, refreshToken: unknown) {
  return call(base, '/api/auth/refresh', { json: { refresh_token: refreshToken } });
}

function logout(base: string, token: string) {
  return call(base, '/api/auth/logout', { method: 'POST', token });
}

/** Flips one character in the middle of the signed part of a token. */
function tamper(token: string, at: number): string {
  const i = Math.min(token.length - 2, Math.max(10, at));
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}

describe('e2e: GET /api/me', function () {
  const h = useServer();

  it('returns exactly {customer_id, email, name, created_at, role} of the caller', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const res = await call(h.url, '/api/me', { token: tokens.access_token });
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['created_at', 'customer_id', 'email', 'name', 'role']);
    expect(res.body.role).to.equal('customer');
    expect(res.body.customer_id).to.match(/^cus_[A-Za-z0-9]{16,}$/);
    expect(res.body.email).to.equal(ALICE.email);
    expect(res.body.name).to.be.a('string').and.not.equal('');
    expect(res.body.created_at).to.match(RFC3339_UTC);
    expect(res.text.toLowerCase()).not.to.match(/hash|password|scrypt/);
  });

  it('sends Cache-Control: no-store', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const res = await call(h.url, '/api/me', { token: tokens.access_token });
    expect(res.headers.get('cache-control') ?? '').to.include('no-store');
  });

  it('tells two customers apart', async function () {
    const [a, b] = await Promise.all([login(h.url, ALICE.email, ALICE.password), login(h.url, BOB.email, BOB.password)]);
    const [meA, meB] = await Promise.all([call(h.url, '/api/me', { token: a.access_token }), call(h.url, '/api/me', { token: b.access_token })]);
    expect(meA.body.email).to.equal(ALICE.email);
    expect(meB.body.email).to.equal(BOB.email);
    expect(meA.body.customer_id).not.to.equal(meB.body.customer_id);
  });

  it('answers 401 unauthorized with a Bearer challenge when no Authorization header is sent', async function () {
    expectUnauthorized(await call(h.url, '/api/me'), 'unauthorized');
  });
});

describe('e2e: access tokens', function () {
  const h = useServer();
  let other: RunningServer | undefined;
  before(async function () {
    this.timeout(30_000);
    other = await startServer();
  });
  after(async function () {
    await other?.close();
  });

  const PUBLIC = ['/api/products', '/api/status', '/api/search?q=pizza', '/api/rate-limit'];

  it('answers 401 invalid_token to a garbage token on login and refresh too', async function () {
    expectUnauthorized(await call(h.url, '/api/auth/login', { json: ALICE, token: 'garbage' }), 'invalid_token');
    const tokens = await login(h.url, BOB.email, BOB.password);
    expectUnauthorized(await call(h.url, '/api/auth/refresh', { json: { refresh_token: tokens.refresh_token }, token: 'garbage' }), 'invalid_token');
  });
  const PRIVATE = ['/api/me', '/api/orders'];

  it('answers 401 invalid_token to a garbage token on every endpoint, public ones included', async function () {
    for (const path of [...PUBLIC, ...PRIVATE]) {
      const res = await call(h.url, path, { token: 'garbage' });
      expectUnauthorized(res, 'invalid_token');
    }
  });

  it('answers 401 invalid_token to a tampered token', async function () {
    const { access_token: token } = await login(h.url, ALICE.email, ALICE.password);
    for (const at of [token.length - 5, Math.floor(token.length / 2), 12]) {
      const res = await call(h.url, '/api/me', { token: tamper(token, at) });
      expectUnauthorized(res, 'invalid_token');
    }
    const truncated = await call(h.url, '/api/me', { token: token.slice(0, -4) });
    expectUnauthorized(truncated, 'invalid_token');
  });

  it('answers 401 invalid_token to a token signed by another server\'s key', async function () {
    const foreign = await login(baseOf(other!), ALICE.email, ALICE.password);
    expectUnauthorized(await call(h.url, '/api/me', { token: foreign.access_token }), 'invalid_token');
    expectUnauthorized(await call(h.url, '/api/products', { token: foreign.access_token }), 'invalid_token');
  });

  it('answers 401 invalid_token to another authorization scheme, even on a public endpoint', async function () {
    for (const value of ['Basic YWxpY2VAZXhhbXBsZS5jb206YWxpY2UtcGFzc3dvcmQ=', 'Token abc', 'Bearer', 'Bearer ', 'bearer-ish xyz']) {
      const res = await call(h.url, '/api/products', { headers: { Authorization: value } });
      expectUnauthorized(res, 'invalid_token');
    }
  });

  it('answers 401 invalid_token to the refresh token presented as an access token', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    expectUnauthorized(await call(h.url, '/api/me', { token: tokens.refresh_token }), 'invalid_token');
  });

  it('accepts the Bearer scheme case-insensitively', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const res = await call(h.url, '/api/me', { headers: { Authorization: `bearer ${tokens.access_token}` } });
    expect(res.status).to.equal(200);
  });

  it('answers 403 account_disabled to the tokens of a customer disabled after login', async function () {
    const c = await newCustomer(h, 'disabled');
    expect((await call(h.url, '/api/me', { token: c.token })).status).to.equal(200);
    await h.server.storefront.setCustomerDisabled.execute({ email: c.email, disabled: true });
    expectError(await call(h.url, '/api/me', { token: c.token }), 403, 'account_disabled');
    expectError(await call(h.url, '/api/orders', { token: c.token }), 403, 'account_disabled');
    expectError(await call(h.url, '/api/orders', { token: c.token, json: { items: [] } }), 403, 'account_disabled');
    expectError(await refresh(h.url, c.tokens.refresh_token), 403, 'account_disabled');
  });
});

describe('e2e: POST /api/auth/refresh', function () {
  const h = useServer();

  it('trades a refresh token for a new pair with different tokens', async function () {
    const first = await login(h.url, ALICE.email, ALICE.password);
    const res = await refresh(h.url, first.refresh_token);
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.body.token_type).to.equal('Bearer');
    expect(res.body.expires_in).to.equal(900);
    expect(res.body.access_token).not.to.equal(first.access_token);
    expect(res.body.refresh_token).not.to.equal(first.refresh_token);
    expect(res.headers.get('cache-control') ?? '').to.include('no-store');
    const me = await call(h.url, '/api/me', { token: res.body.access_token });
    expect(me.status).to.equal(200);
    expect(me.body.email).to.equal(ALICE.email);
  });

  it('rotates again with the new refresh token', async function () {
    const first = await login(h.url, BOB.email, BOB.password);
    const second = await refresh(h.url, first.refresh_token);
    expect(second.status).to.equal(200);
    const third = await refresh(h.url, second.body.refresh_token);
    expect(third.status).to.equal(200);
    expect(third.body.refresh_token).not.to.equal(second.body.refresh_token);
  });

  it('revokes the whole session when a rotated refresh token is used again', async function () {
    const first = await login(h.url, ALICE.email, ALICE.password);
    const second = await refresh(h.url, first.refresh_token);
    expect(second.status).to.equal(200);
    expectUnauthorized(await refresh(h.url, first.refresh_token), 'invalid_token');
    expectUnauthorized(await refresh(h.url, second.body.refresh_token), 'invalid_token');
    expectUnauthorized(await call(h.url, '/api/me', { token: second.body.access_token }), 'invalid_token');
    expectUnauthorized(await call(h.url, '/api/me', { token: first.access_token }), 'invalid_token');
  });

  it('leaves the customer\'s other sessions alone when one is revoked for reuse', async function () {
    const other = await login(h.url, ALICE.email, ALICE.password);
    const victim = await login(h.url, ALICE.email, ALICE.password);
    expect((await refresh(h.url, victim.refresh_token)).status).to.equal(200);
    expect((await refresh(h.url, victim.refresh_token)).status).to.equal(401);
    expect((await call(h.url, '/api/me', { token: other.access_token })).status).to.equal(200);
    expect((await refresh(h.url, other.refresh_token)).status).to.equal(200);
  });

  it('lets exactly one of several concurrent refreshes with the same token succeed', async function () {
    const tokens = await login(h.url, BOB.email, BOB.password);
    const results = await Promise.all(Array.from({ length: 5 }, () => refresh(h.url, tokens.refresh_token)));
    // One rotation wins the compare-and-set (which one is not specified); the others present a
    // rotated token, which also revokes the session.
    const ok = results.filter((r) => r.status === 200);
    expect(ok).to.have.length(1);
    for (const r of results.filter((x) => x.status !== 200)) expectUnauthorized(r, 'invalid_token');
    expectUnauthorized(await refresh(h.url, ok[0]!.body.refresh_token as string), 'invalid_token');
  });

  it('answers 401 invalid_token to an access token presented as a refresh token', async function () {
    const tokens = await login(h.url, BOB.email, BOB.password);
    expectUnauthorized(await refresh(h.url, tokens.access_token), 'invalid_token');
  });

  it('answers 401 invalid_token to an unknown or malformed refresh token', async function () {
    expectUnauthorized(await refresh(h.url, 'garbage'), 'invalid_token');
    const tokens = await login(h.url, BOB.email, BOB.password);
    expectUnauthorized(await refresh(h.url, `${tokens.refresh_token}x`), 'invalid_token');
    expectUnauthorized(await refresh(h.url, 'r'.repeat(500)), 'invalid_token');
    expectUnauthorized(await refresh(h.url, `ses_${'a'.repeat(20)}.${'b'.repeat(43)}`), 'invalid_token');
  });

  it('answers 400 validation_failed to a missing or non-string refresh_token', async function () {
    expectValidation(await call(h.url, '/api/auth/refresh', { json: {} }), 'refresh_token');
    expectValidation(await refresh(h.url, 12345), 'refresh_token');
    expectValidation(await refresh(h.url, null), 'refresh_token');
  });
});

describe('e2e: POST /api/auth/logout', function () {
  const h = useServer();

  it('answers 204 with an empty body', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const res = await logout(h.url, tokens.access_token);
    expect(res.status).to.equal(204);
    expect(res.text).to.equal('');
  });

  it('makes the access token 401 on every endpoint and the refresh token 401', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    expect((await logout(h.url, tokens.access_token)).status).to.equal(204);
    for (const path of ['/api/me', '/api/orders', '/api/products', '/api/status']) {
      expectUnauthorized(await call(h.url, path, { token: tokens.access_token }), 'invalid_token');
    }
    expectUnauthorized(await logout(h.url, tokens.access_token), 'invalid_token');
    expectUnauthorized(await refresh(h.url, tokens.refresh_token), 'invalid_token');
  });

  it('revokes only the session it is called with', async function () {
    const keep = await login(h.url, BOB.email, BOB.password);
    const drop = await login(h.url, BOB.email, BOB.password);
    expect((await logout(h.url, drop.access_token)).status).to.equal(204);
    expect((await call(h.url, '/api/me', { token: keep.access_token })).status).to.equal(200);
    expect((await refresh(h.url, keep.refresh_token)).status).to.equal(200);
  });

  it('revokes a session whose tokens were refreshed', async function () {
    const first = await login(h.url, BOB.email, BOB.password);
    const second = await refresh(h.url, first.refresh_token);
    expect(second.status).to.equal(200);
    expect((await logout(h.url, second.body.access_token)).status).to.equal(204);
    expectUnauthorized(await refresh(h.url, second.body.refresh_token), 'invalid_token');
  });

  it('answers 401 unauthorized with a Bearer challenge when no Authorization header is sent', async function () {
    expectUnauthorized(await call(h.url, '/api/auth/logout', { method: 'POST' }), 'unauthorized');
  });
});

describe('e2e: tokens signed with the configured TOKEN_SECRET_KEY', function () {
  const key = newSigningKey();
  const h = useServer({ TOKEN_SECRET_KEY: key.paserk });
  const iso = (offsetSeconds: number): string => new Date(Date.now() + offsetSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  it('signs with TOKEN_SECRET_KEY: a token re-signed with that key for a live session is accepted', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const claims = decodeToken(tokens.access_token).claims;
    expect(claims).to.include.keys('sub', 'sid', 'exp');
    expect(claims['sub']).to.match(/^cus_/);
    const copy = resign(key, tokens.access_token, (c) => ({ ...c, jti: 'e2e-resigned' }));
    const res = await call(h.url, '/api/me', { token: copy });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.customer_id).to.equal(claims['sub']);
  });

  it('answers 401 token_expired, with an invalid_token challenge, to an expired token on every endpoint', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const expired = resign(key, tokens.access_token, (c) => ({ ...c, iat: iso(-1000), exp: iso(-60) }));
    for (const path of ['/api/me', '/api/orders', '/api/products', '/api/status']) {
      expectUnauthorized(await call(h.url, path, { token: expired }), 'token_expired');
    }
  });

  it('answers 401 invalid_token to a token whose signature is right but which has no exp', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    const eternal = resign(key, tokens.access_token, (c) => {
      const { exp: _exp, ...rest } = c;
      return rest;
    });
    expectUnauthorized(await call(h.url, '/api/me', { token: eternal }), 'invalid_token');
  });

  it('answers 401 invalid_token to a signed token naming another customer or an unknown session', async function () {
    const alice = await login(h.url, ALICE.email, ALICE.password);
    const bob = await login(h.url, BOB.email, BOB.password);
    const bobId = decodeToken(bob.access_token).claims['sub'];
    const crossed = resign(key, alice.access_token, (c) => ({ ...c, sub: bobId }));
    expectUnauthorized(await call(h.url, '/api/me', { token: crossed }), 'invalid_token');
    const orphan = resign(key, alice.access_token, (c) => ({ ...c, sid: `ses_${'x'.repeat(20)}` }));
    expectUnauthorized(await call(h.url, '/api/me', { token: orphan }), 'invalid_token');
  });

  it('answers 401 invalid_token to a token signed after its session was logged out', async function () {
    const tokens = await login(h.url, BOB.email, BOB.password);
    expect((await logout(h.url, tokens.access_token)).status).to.equal(204);
    const fresh = resign(key, tokens.access_token, (c) => ({ ...c, jti: 'after-logout', exp: iso(600) }));
    expectUnauthorized(await call(h.url, '/api/me', { token: fresh }), 'invalid_token');
  });
});

describe('e2e: tokens expire on the server\'s clock', function () {
  const clock = new FakeClock(Date.now());
  const h = useServer({}, { clock });
  /** The 5 s the token service allows for clock skew between instances. */
  const SKEW_MS = 5_000;

  it('refuses an access token token_expired once its 900 s are over, and a refresh still gives a new one', async function () {
    const tokens = await login(h.url, BOB.email, BOB.password);
    clock.advance(899_000);
    expect((await call(h.url, '/api/me', { token: tokens.access_token })).status, 'at 899 s').to.equal(200);
    clock.advance(1_000 + SKEW_MS + 1_000);
    expectUnauthorized(await call(h.url, '/api/me', { token: tokens.access_token }), 'token_expired');
    const renewed = await refresh(h.url, tokens.refresh_token);
    expect(renewed.status, renewed.text).to.equal(200);
    expect((await call(h.url, '/api/me', { token: renewed.body.access_token as string })).status).to.equal(200);
  });

  it('takes a refresh token until its 30 days are over, and refuses it invalid_token after', async function () {
    const early = await login(h.url, BOB.email, BOB.password);
    const late = await login(h.url, BOB.email, BOB.password);
    clock.advance(2_592_000_000 - 1_000);
    expect((await refresh(h.url, early.refresh_token)).status, '1 s before the end').to.equal(200);
    clock.advance(2_000);
    expectUnauthorized(await refresh(h.url, late.refresh_token), 'invalid_token');
  });
});
