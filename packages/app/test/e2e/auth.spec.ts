import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Res } from './support.js';
import { ALICE, BOB, CAROL, call, expectError, expectJson, expectValidation, headerNames, useServer } from './support.js';

const INVALID_CREDENTIALS = '{"error":"invalid_credentials"}';

function loginRaw(base: string, body: unknown): Promise<Res> {
  return call(base, '/api/auth/login', { json: body });
}

/** Headers whose values legitimately differ between two otherwise identical responses. */
const VARYING = new Set(['date', 'x-request-id', 'ratelimit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'keep-alive', 'connection']);

describe('e2e: POST /api/auth/login', function () {
  const h = useServer();

  it('answers 200 with {access_token, token_type, expires_in, refresh_token} for correct credentials', async function () {
    const res = await loginRaw(h.url, ALICE);
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.body.token_type).to.equal('Bearer');
    expect(res.body.expires_in).to.equal(900);
    expect(res.body.access_token).to.be.a('string').and.have.length.above(20);
    expect(res.body.refresh_token).to.be.a('string').and.have.length.above(20);
    expect(res.body.refresh_token).not.to.equal(res.body.access_token);
  });

  it('issues a PASETO v4.public access token', async function () {
    const res = await loginRaw(h.url, BOB);
    expect(res.body.access_token).to.match(/^v4\.public\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/);
  });

  it('sends X-Refresh-Token-Expires-In: 2592000 and Cache-Control: no-store', async function () {
    const res = await loginRaw(h.url, ALICE);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-refresh-token-expires-in')).to.equal('2592000');
    expect(res.headers.get('cache-control') ?? '').to.include('no-store');
  });

  it('issues different tokens on every login', async function () {
    const [a, b] = await Promise.all([loginRaw(h.url, ALICE), loginRaw(h.url, ALICE)]);
    expect(a.body.access_token).not.to.equal(b.body.access_token);
    expect(a.body.refresh_token).not.to.equal(b.body.refresh_token);
  });

  it('trims and lower-cases the email', async function () {
    const res = await loginRaw(h.url, { email: '  ALICE@Example.COM ', password: ALICE.password });
    expect(res.status).to.equal(200);
    const me = await call(h.url, '/api/me', { token: res.body.access_token });
    expect(me.body.email).to.equal('alice@example.com');
  });

  it('does not trim or fold the password', async function () {
    expect((await loginRaw(h.url, { email: ALICE.email, password: ` ${ALICE.password}` })).status).to.equal(401);
    expect((await loginRaw(h.url, { email: ALICE.email, password: ALICE.password.toUpperCase() })).status).to.equal(401);
  });

  it('answers a wrong password with 401 and exactly {"error":"invalid_credentials"}', async function () {
    const res = await loginRaw(h.url, { email: ALICE.email, password: 'wrong-password' });
    expectError(res, 401, 'invalid_credentials');
    expect(res.body).to.deep.equal({ error: 'invalid_credentials' });
    expect(res.text).to.equal(INVALID_CREDENTIALS);
  });

  it('answers an unknown email with 401 and exactly {"error":"invalid_credentials"}', async function () {
    const res = await loginRaw(h.url, { email: 'nobody@example.com', password: 'whatever-password' });
    expectError(res, 401, 'invalid_credentials');
    expect(res.text).to.equal(INVALID_CREDENTIALS);
  });

  it('gives an unknown email and a wrong password the same body and the same headers', async function () {
    const unknown = await loginRaw(h.url, { email: 'nobody@example.com', password: 'alice-password' });
    const wrong = await loginRaw(h.url, { email: ALICE.email, password: 'nobody-password' });
    expect(unknown.status).to.equal(wrong.status);
    expect(unknown.text).to.equal(wrong.text);
    expect(headerNames(unknown.headers)).to.deep.equal(headerNames(wrong.headers));
    for (const name of headerNames(wrong.headers)) {
      if (!VARYING.has(name)) expect(unknown.headers.get(name), name).to.equal(wrong.headers.get(name));
    }
  });

  it('challenges a failed login with WWW-Authenticate: Bearer realm="storefront"', async function () {
    for (const body of [{ email: ALICE.email, password: 'wrong-password' }, { email: 'nobody@example.com', password: 'wrong-password' }]) {
      const res = await loginRaw(h.url, body);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate') ?? '').to.match(/^Bearer realm="storefront"/);
    }
  });

  it('answers the disabled customer with the right password 403 account_disabled', async function () {
    expectError(await loginRaw(h.url, CAROL), 403, 'account_disabled');
  });

  it('answers the disabled customer with a wrong password 401 invalid_credentials', async function () {
    const res = await loginRaw(h.url, { email: CAROL.email, password: 'not-carols-password' });
    expectError(res, 401, 'invalid_credentials');
    expect(res.text).to.equal(INVALID_CREDENTIALS);
  });

  it('answers 400 validation_failed to a missing email or password', async function () {
    expectValidation(await loginRaw(h.url, { password: ALICE.password }), 'email');
    expectValidation(await loginRaw(h.url, { email: ALICE.email }), 'password');
    expectValidation(await loginRaw(h.url, {}), 'email', 'password');
  });

  it('answers 400 validation_failed to an email or password of the wrong type', async function () {
    expectValidation(await loginRaw(h.url, { email: 42, password: ALICE.password }), 'email');
    expectValidation(await loginRaw(h.url, { email: ALICE.email, password: ['alice-password'] }), 'password');
    expectValidation(await loginRaw(h.url, { email: null, password: null }), 'email', 'password');
    expectValidation(await loginRaw(h.url, { email: { $ne: '' }, password: { $ne: '' } }), 'email', 'password');
  });

  it('answers 400 validation_failed to an empty email or password', async function () {
    expectValidation(await loginRaw(h.url, { email: '', password: ALICE.password }), 'email');
    expectValidation(await loginRaw(h.url, { email: ALICE.email, password: '' }), 'password');
  });

  it('answers 400 to a JSON body that is not an object: validation_failed for an array, invalid_json for any other value', async function () {
    // The parser admits objects and arrays only: an array then fails the body's shape check.
    const cases: [string, string][] = [['[]', 'validation_failed'], ['"alice"', 'invalid_json'], ['null', 'invalid_json'], ['42', 'invalid_json']];
    for (const [body, code] of cases) {
      const res = await call(h.url, '/api/auth/login', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
      expect([res.status, res.body?.error], `${body}: ${res.text}`).to.deep.equal([400, code]);
    }
  });

  it('answers 415 unsupported_media_type to a form-encoded login', async function () {
    const res = await call(h.url, '/api/auth/login', {
      method: 'POST',
      body: 'email=alice%40example.com&password=alice-password',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('logs 30 concurrent logins in without a server error', async function () {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => loginRaw(h.url, i % 2 === 0 ? ALICE : BOB)));
    expect(results.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
    expect(new Set(results.map((r) => r.body.refresh_token)).size).to.equal(30);
  });
});

describe('e2e: login timing', function () {
  // A realistic scrypt cost, so that skipping the hash for an unknown email would show.
  const h = useServer({ SCRYPT_LOG_N: '14' });

  async function timed(body: unknown): Promise<number> {
    const start = process.hrtime.bigint();
    const res = await loginRaw(h.url, body);
    expect(res.status).to.equal(401);
    return Number(process.hrtime.bigint() - start) / 1e6;
  }

  function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }

  it('spends as long on an unknown email as on a wrong password (dummy hash of the same cost)', async function () {
    this.timeout(20_000);
    await timed({ email: 'warm-up@example.com', password: 'x-password' });
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await timed({ email: `ghost-${i}@example.com`, password: 'wrong-password' }));
      wrong.push(await timed({ email: BOB.email, password: `wrong-password-${i}` }));
    }
    const ratio = median(unknown) / median(wrong);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms vs wrong ${median(wrong).toFixed(1)} ms`).to.be.within(0.33, 3);
  });
});
