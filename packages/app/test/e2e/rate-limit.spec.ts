import { describe, it } from 'mocha';
import { expect } from 'chai';
import { FakeClock } from '@storefront/testing';
import type { RequestOptions, Res, ServerHandle } from './support.js';
import { BOB, call, expectError, expectJson, newCustomer, registerCustomer, useServer } from './support.js';

/** Requests from one loopback address: each test is its own client IP. */
function client(h: ServerHandle, ip: string) {
  return (path: string, opts: RequestOptions = {}): Promise<Res> => call(h.url, path, { ...opts, localAddress: ip });
}

function expectRateLimitHeaders(res: Res, limit: number, window: number): number {
  expect(res.headers.get('ratelimit-policy'), 'RateLimit-Policy').to.equal(`"default";q=${limit};w=${window}`);
  const header = res.headers.get('ratelimit') ?? '';
  const m = /^"default";r=(\d+);t=(\d+)$/.exec(header);
  expect(m, `RateLimit: ${header}`).not.to.equal(null);
  const remaining = Number(m![1]);
  const t = Number(m![2]);
  expect(t, 'whole seconds, rounded up; buckets may add up to one second').to.be.within(0, window + 1);
  expect(res.headers.get('x-ratelimit-limit')).to.equal(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).to.equal(String(remaining));
  const reset = res.headers.get('x-ratelimit-reset') ?? '';
  expect(reset, 'X-RateLimit-Reset').to.match(/^\d+$/);
  const now = Math.floor(Date.now() / 1000);
  expect(Number(reset), 'X-RateLimit-Reset is in the future').to.be.above(now);
  expect(Number(reset)).to.be.at.most(now + window + 2);
  return remaining;
}

function cacheControl(res: Res): string {
  return res.headers.get('cache-control') ?? '';
}

function expectRateLimited(res: Res): number {
  expectError(res, 429, 'rate_limited');
  const retryAfter = res.body.retry_after as number;
  expect(Number.isInteger(retryAfter), `retry_after ${retryAfter}`).to.equal(true);
  expect(retryAfter).to.be.at.least(1);
  expect(res.headers.get('retry-after')).to.equal(String(retryAfter));
  return retryAfter;
}

describe('e2e: rate limiting (5 requests per 60 s)', function () {
  // A clock that stands still: every request of a test is at one instant, so `reset` and
  // `retry_after` are exactly the window, whatever the machine's speed.
  const h = useServer({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' }, { clock: new FakeClock(Date.now()) });

  it('sends the rate-limit headers on every response: a 200, a 404 and an error', async function () {
    const get = client(h, '127.0.0.11');
    const ok = await get('/api/products');
    expect(ok.status).to.equal(200);
    expect(expectRateLimitHeaders(ok, 5, 60)).to.equal(4);
    const missing = await get('/api/no-such-thing');
    expect(missing.status).to.equal(404);
    expect(expectRateLimitHeaders(missing, 5, 60)).to.equal(3);
    const bad = await get('/api/auth/login', { method: 'POST', body: '{"email":', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).to.equal(400);
    expect(expectRateLimitHeaders(bad, 5, 60)).to.equal(2);
  });

  it('lets 5 requests through and answers the 6th 429 rate_limited with Retry-After', async function () {
    const get = client(h, '127.0.0.12');
    for (let i = 0; i < 5; i++) {
      const res = await get('/api/products');
      expect(res.status, `request ${i + 1}`).to.equal(200);
      expect(res.headers.get('x-ratelimit-remaining')).to.equal(String(4 - i));
    }
    const refused = await get('/api/products');
    const retryAfter = expectRateLimited(refused);
    expect(retryAfter).to.equal(60);
    expect(Object.keys(refused.body).sort()).to.deep.equal(['error', 'message', 'retry_after']);
    expect(expectRateLimitHeaders(refused, 5, 60)).to.equal(0);
    // The status spends no quota (load balancers poll it): it still answers, with the spent quota in its headers.
    const status = await get('/api/status');
    expect(status.status).to.equal(200);
    expect(expectRateLimitHeaders(status, 5, 60)).to.equal(0);
  });

  it('reports the quota on GET /api/rate-limit without consuming it', async function () {
    const get = client(h, '127.0.0.13');
    for (let i = 0; i < 6; i++) {
      const res = await get('/api/rate-limit');
      expect(res.status).to.equal(200);
      expectJson(res);
      expect(Object.keys(res.body).sort()).to.deep.equal(['limit', 'remaining', 'reset', 'retry_after', 'scope', 'window']);
      expect(res.body).to.include({ limit: 5, remaining: 5, window: 60, retry_after: 0, scope: 'ip' });
    }
    expect(cacheControl(await get('/api/rate-limit'))).to.include('no-store');
    expect((await get('/api/products')).status).to.equal(200);
    const after = await get('/api/rate-limit');
    expect(after.body).to.include({ remaining: 4, retry_after: 0, reset: 60 });
  });

  it('still answers GET /api/rate-limit once the quota is spent, with retry_after', async function () {
    const get = client(h, '127.0.0.14');
    for (let i = 0; i < 5; i++) expect((await get('/api/products')).status).to.equal(200);
    expectRateLimited(await get('/api/products'));
    const res = await get('/api/rate-limit');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ limit: 5, remaining: 0, scope: 'ip', retry_after: 60, reset: 60 });
  });

  it('counts a customer\'s requests against the customer, apart from its IP', async function () {
    const get = client(h, '127.0.0.15');
    const c = await newCustomer(h, 'quota');
    const status = await get('/api/rate-limit', { token: c.token });
    expect(status.body).to.include({ limit: 5, remaining: 5, scope: 'customer' });
    for (let i = 0; i < 5; i++) expect((await get('/api/me', { token: c.token })).status, `request ${i + 1}`).to.equal(200);
    expectRateLimited(await get('/api/me', { token: c.token }));
    const anonymous = await get('/api/rate-limit');
    expect(anonymous.body).to.include({ remaining: 5, scope: 'ip' });
    expect((await get('/api/products')).status).to.equal(200);
  });

  it('counts a request with a bad token against its client IP', async function () {
    const get = client(h, '127.0.0.17');
    expect((await get('/api/products', { token: 'garbage' })).status).to.equal(401);
    expect((await get('/api/me', { token: 'garbage' })).status).to.equal(401);
    const status = await get('/api/rate-limit');
    expect(status.body).to.include({ remaining: 3, scope: 'ip' });
  });

  it('ignores X-Forwarded-For by default: a spoofed address does not get a fresh quota', async function () {
    const get = client(h, '127.0.0.18');
    for (let i = 0; i < 5; i++) expect((await get('/api/products', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } })).status).to.equal(200);
    expectRateLimited(await get('/api/products', { headers: { 'X-Forwarded-For': '198.51.100.7' } }));
    expectRateLimited(await get('/api/products'));
  });

  it('lets exactly 5 of 12 concurrent requests through', async function () {
    const get = client(h, '127.0.0.19');
    const results = await Promise.all(Array.from({ length: 12 }, () => get('/api/products')));
    expect(results.filter((r) => r.status === 200)).to.have.length(5);
    for (const r of results.filter((x) => x.status !== 200)) expectRateLimited(r);
  });

  it('sends the rate-limit headers on GET /api/rate-limit too, matching its body', async function () {
    const get = client(h, '127.0.0.20');
    expect((await get('/api/products')).status).to.equal(200);
    const res = await get('/api/rate-limit');
    expect(expectRateLimitHeaders(res, 5, 60)).to.equal(res.body.remaining);
    expect(res.body.remaining).to.equal(4);
  });

  it('serves a customer\'s token from an IP whose anonymous quota is spent', async function () {
    const get = client(h, '127.0.0.16');
    const c = await newCustomer(h, 'quota-ip');
    for (let i = 0; i < 5; i++) expect((await get('/api/products')).status).to.equal(200);
    expectRateLimited(await get('/api/products'));
    const res = await get('/api/me', { token: c.token });
    expect(res.status).to.equal(200);
    expect(expectRateLimitHeaders(res, 5, 60)).to.equal(4);
  });
});

describe('e2e: rate limiting as time passes (3 requests per 60 s, on a clock the test moves)', function () {
  const clock = new FakeClock(Date.now());
  const h = useServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' }, { clock });

  it('does not count refused requests, and gives the full quota back at reset', async function () {
    const get = client(h, '127.0.0.21');
    for (let i = 0; i < 3; i++) expect((await get('/api/products')).status).to.equal(200);
    const status = await get('/api/rate-limit');
    expect(status.body).to.include({ remaining: 0, reset: 60, retry_after: 60 });
    // Retry once a second while refused: if refusals counted, they would still fill the window at reset.
    for (let second = 1; second < 60; second++) {
      clock.advance(1_000);
      expect(expectRateLimited(await get('/api/products')), `Retry-After ${second} s after the quota was spent`).to.equal(60 - second);
    }
    clock.advance(1_000);
    for (let i = 0; i < 3; i++) expect((await get('/api/products')).status, `request ${i + 1} at reset`).to.equal(200);
  });

  it('slides: each request counts for one full window from its own time, not from the start of a fixed window', async function () {
    const get = client(h, '127.0.0.23');
    // Requests at 0 s, 20 s and 40 s.
    for (let i = 0; i < 3; i++) {
      if (i > 0) clock.advance(20_000);
      expect((await get('/api/products')).status, `request at ${i * 20} s`).to.equal(200);
    }
    clock.advance(19_999);
    expect(expectRateLimited(await get('/api/products')), 'Retry-After 1 ms before the first request stops counting').to.equal(1);
    clock.advance(1);
    expect((await get('/api/products')).status, 'at 60 s the request of 0 s no longer counts').to.equal(200);
    expect(expectRateLimited(await get('/api/products')), 'the request of 20 s still counts until 80 s').to.equal(20);
    clock.advance(20_000);
    expect((await get('/api/products')).status, 'at 80 s').to.equal(200);
  });

  it('lets the next request through after Retry-After seconds, and not a millisecond before', async function () {
    const get = client(h, '127.0.0.22');
    for (let i = 0; i < 3; i++) expect((await get('/api/products')).status).to.equal(200);
    const retryAfter = expectRateLimited(await get('/api/products'));
    expect(retryAfter).to.equal(60);
    clock.advance(retryAfter * 1000 - 1);
    expectRateLimited(await get('/api/products'));
    clock.advance(1);
    expect((await get('/api/products')).status).to.equal(200);
  });
});

describe('e2e: login rate limiting (3 attempts per 60 s per client; the per-email ceiling lowered to 3 too)', function () {
  // A clock that stands still: Retry-After is exactly the window.
  const h = useServer({ LOGIN_RATE_LIMIT_MAX: '3', LOGIN_EMAIL_RATE_LIMIT_MAX: '3' }, { clock: new FakeClock(Date.now()) });

  it('refuses the 4th login attempt from one client with 429 rate_limited and Retry-After', async function () {
    const post = client(h, '127.0.0.31');
    for (let i = 0; i < 3; i++) {
      const res = await post('/api/auth/login', { json: { email: `stranger-${i}@example.com`, password: 'wrong-password' } });
      expect(res.status, `attempt ${i + 1}`).to.equal(401);
    }
    const refused = await post('/api/auth/login', { json: { email: 'stranger-4@example.com', password: 'wrong-password' } });
    expect(expectRateLimited(refused)).to.equal(60);
    expectRateLimited(await post('/api/auth/login', { json: BOB }));
  });

  it('refuses an attempt on one email past the per-email ceiling from any client', async function () {
    const c = await registerCustomer(h, 'login-limit');
    for (let i = 0; i < 3; i++) {
      const res = await call(h.url, '/api/auth/login', { json: { email: c.email, password: 'wrong-password' }, localAddress: `127.0.0.${40 + i}` });
      expect(res.status, `attempt ${i + 1}`).to.equal(401);
    }
    const refused = await call(h.url, '/api/auth/login', { json: { email: c.email, password: c.password }, localAddress: '127.0.0.45' });
    expectRateLimited(refused);
  });

  it('counts an email\'s attempts however its case and spaces are written', async function () {
    const c = await registerCustomer(h, 'login-case');
    const variants = [c.email.toUpperCase(), ` ${c.email} `, c.email.replace(/^./, (ch) => ch.toUpperCase())];
    for (let i = 0; i < 3; i++) {
      const res = await call(h.url, '/api/auth/login', { json: { email: variants[i], password: 'wrong-password' }, localAddress: `127.0.0.${60 + i}` });
      expect(res.status, `attempt ${i + 1}`).to.equal(401);
    }
    expectRateLimited(await call(h.url, '/api/auth/login', { json: { email: c.email, password: c.password }, localAddress: '127.0.0.65' }));
  });

  it('lets exactly 3 of 10 concurrent login attempts from one client through', async function () {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(h.url, '/api/auth/login', { json: { email: `burst-${i}@example.com`, password: 'wrong-password' }, localAddress: '127.0.0.70' })),
    );
    expect(results.filter((r) => r.status === 401)).to.have.length(3);
    for (const r of results.filter((x) => x.status !== 401)) expectRateLimited(r);
  });

  it('does not limit other endpoints at the login rate', async function () {
    const get = client(h, '127.0.0.50');
    for (let i = 0; i < 6; i++) expect((await get('/api/products')).status).to.equal(200);
  });
});

describe('e2e: no lock-out through the per-email limit (the defaults: 10 attempts a minute per client, 100 per email)', function () {
  // The test environment lifts the login limit; these are the production defaults again.
  const h = useServer({ LOGIN_RATE_LIMIT_MAX: '10' });

  async function attempt(email: string, password: string, from: string): Promise<Res> {
    return call(h.url, '/api/auth/login', { json: { email, password }, localAddress: from });
  }

  it("lets Bob's right password in from a fresh address after 10 wrong ones for his email from 10 addresses", async function () {
    for (let i = 0; i < 10; i++) expect((await attempt(BOB.email, 'wrong-password', `127.0.1.${10 + i}`)).status, `attempt ${i + 1}`).to.equal(401);
    const bob = await attempt(BOB.email, BOB.password, '127.0.1.99');
    expect(bob.status, bob.text).to.equal(200);
  });

  it('still refuses the 101st attempt on one email within the window, from any address: the bound on distributed guessing', async function () {
    const c = await registerCustomer(h, 'guess-ceiling');
    for (let a = 0; a < 10; a++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => attempt(c.email, 'wrong-password', `127.0.2.${10 + a}`)));
      expect(answers.map((r) => r.status), `address ${a}`).to.deep.equal(new Array(10).fill(401));
    }
    expectRateLimited(await attempt(c.email, c.password, '127.0.2.200'));
    expectRateLimited(await attempt(c.email, 'wrong-password', '127.0.2.201'));
  });

  it('counts a password asked again by POST /api/me/delete under the same limits: a stolen token guesses at the login rate and locks nobody out', async function () {
    const c = await newCustomer(h, 'erase-guess');
    const erase = (password: string): Promise<Res> => call(h.url, '/api/me/delete', { token: c.token, json: { password }, localAddress: '127.0.3.1' });
    for (let i = 0; i < 10; i++) expectError(await erase('wrong-password'), 401, 'invalid_credentials');
    expectRateLimited(await erase('wrong-password'));
    const owner = await attempt(c.email, c.password, '127.0.3.2');
    expect(owner.status, owner.text).to.equal(200);
  });
});
