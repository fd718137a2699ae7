/**
 * GET /api/rate-limit and GET /api/status are read by clients and load balancers over and over:
 * they spend nothing of the caller's quota, at any spelling of their paths, still carry the
 * caller's rate-limit headers, and each has a generous per-address limit of its own so that
 * polling them cannot hammer the store. The status answers from checks at most a second old.
 */
import type { HealthProbe } from '@storefront/domain';
import { FakeClock } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { TYPES } from '../../src/identifiers.js';
import { composeStorefront, type ComposedServer } from '../reliability/support.js';
import type { RequestOptions, Res, ServerHandle } from './support.js';
import { call, expectError, expectUnauthorized, newCustomer, useServer } from './support.js';

const SPELLINGS = ['/api/rate-limit', '/api/rate-limit/', '/API/RATE-LIMIT', '/api/status', '/api/status/', '/Api/Status'];

/** Requests from one loopback address: each test is its own client. */
function client(h: ServerHandle, ip: string) {
  return (path: string, opts: RequestOptions = {}): Promise<Res> => call(h.url, path, { ...opts, localAddress: ip });
}

function remaining(res: Res): number {
  return Number(res.headers.get('x-ratelimit-remaining'));
}

/** A 429 of a 60 s window on a clock that stands still: Retry-After is the whole window. */
function expectRateLimited(res: Res): void {
  expectError(res, 429, 'rate_limited');
  expect(res.body.retry_after).to.equal(60);
  expect(res.headers.get('retry-after')).to.equal('60');
}

/** The servers of these suites: time stands still unless a test moves it. */
const stillClock = (): { clock: FakeClock } => ({ clock: new FakeClock(Date.now()) });

describe('e2e: status and quota reads spend no quota (5 requests per 60 s)', function () {
  const h = useServer({ RATE_LIMIT_MAX: '5' }, stillClock());

  it('never lowers remaining over 200 requests to each spelling of the two paths; a GET /api/products then has 4 left', async function () {
    this.timeout(120_000);
    const get = client(h, '127.0.0.61');
    for (const path of SPELLINGS) {
      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => get(path)));
        for (const res of answers) {
          expect(res.status, `${path}: ${res.text}`).to.equal(200);
          expect(remaining(res), `X-RateLimit-Remaining of ${path}`).to.equal(5);
          expect(res.headers.get('ratelimit')).to.match(/^"default";r=5;t=\d+$/);
          if (path.toLowerCase().startsWith('/api/rate-limit')) expect(res.body).to.include({ remaining: 5, scope: 'ip' });
        }
      }
    }
    const products = await get('/api/products');
    expect(products.status).to.equal(200);
    expect(remaining(products)).to.equal(4);
  });

  it('answers a caller whose quota is spent: the status 200 with remaining 0, the quota with its retry_after', async function () {
    const get = client(h, '127.0.0.62');
    for (let i = 0; i < 5; i++) expect((await get('/api/products')).status).to.equal(200);
    expectRateLimited(await get('/api/products'));
    const status = await get('/api/status');
    expect(status.status).to.equal(200);
    expect(remaining(status)).to.equal(0);
    const quota = await get('/API/Rate-Limit/');
    expect(quota.status).to.equal(200);
    expect(quota.body).to.include({ remaining: 0, retry_after: 60 });
  });

  it('still counts another method, an unknown path below them and OPTIONS, and refuses a bad token with 401 without counting it', async function () {
    const get = client(h, '127.0.0.63');
    const notAllowed = await get('/api/status', { method: 'POST' });
    expectError(notAllowed, 405, 'method_not_allowed');
    expect(remaining(notAllowed)).to.equal(4);
    const unknown = await get('/api/status/extra');
    expectError(unknown, 404, 'not_found');
    expect(remaining(unknown)).to.equal(3);
    const options = await get('/api/rate-limit', { method: 'OPTIONS' });
    expect(options.status).to.equal(204);
    expect(remaining(options)).to.equal(2);
    for (const path of ['/api/status', '/API/RATE-LIMIT/']) {
      const bad = await get(path, { token: 'v4.public.bogus' });
      expectUnauthorized(bad, 'invalid_token');
      expect(remaining(bad), `${path} with a bad token`).to.equal(2);
    }
    expect((await get('/api/rate-limit')).body).to.include({ remaining: 2 });
  });

  it('peeks at the customer\'s quota when a token is sent, spending none of it', async function () {
    const get = client(h, '127.0.0.64');
    const { token } = await newCustomer(h, 'quota-free');
    for (let i = 0; i < 10; i++) {
      expect(remaining(await get('/api/status/', { token }))).to.equal(5);
      expect((await get('/api/Rate-Limit', { token })).body).to.include({ remaining: 5, scope: 'customer' });
    }
    expect(remaining(await get('/api/me', { token }))).to.equal(4);
  });
});

describe('e2e: the per-address limit of status and quota reads (STATUS_RATE_LIMIT_MAX=3, 5 requests per 60 s)', function () {
  const h = useServer({ RATE_LIMIT_MAX: '5', STATUS_RATE_LIMIT_MAX: '3' }, stillClock());

  it('answers the 4th status check 429 with Retry-After whatever the spelling, with the caller\'s untouched quota in the headers', async function () {
    const get = client(h, '127.0.0.71');
    for (const path of ['/api/status', '/API/STATUS/', '/Api/Status']) expect((await get(path)).status, path).to.equal(200);
    const refused = await get('/api/status/');
    expectRateLimited(refused);
    expect(refused.headers.get('ratelimit-policy')).to.equal('"default";q=5;w=60');
    expect(remaining(refused)).to.equal(5);
  });

  it('keeps one such limit per path: the quota read has its own 3, and the caller\'s quota is still whole', async function () {
    const get = client(h, '127.0.0.72');
    for (let i = 0; i < 3; i++) expect((await get('/api/status')).status).to.equal(200);
    expectRateLimited(await get('/api/status'));
    for (let i = 0; i < 3; i++) expect((await get('/api/rate-limit/')).body).to.include({ remaining: 5 });
    expectRateLimited(await get('/API/RATE-LIMIT'));
    expect(remaining(await get('/api/products'))).to.equal(4);
  });

  it('keeps the limit per address, token or not: a token does not buy more status checks', async function () {
    const get = client(h, '127.0.0.73');
    const { token } = await newCustomer(h, 'status-limit');
    for (let i = 0; i < 3; i++) expect((await get('/api/status')).status).to.equal(200);
    expectRateLimited(await get('/api/status', { token }));
    expect((await client(h, '127.0.0.74')('/api/status', { token })).status, 'another address').to.equal(200);
  });
});

describe('e2e: status checks with the default limits', function () {
  // Unset: 120 requests per 60 s, 600 status checks per 60 s.
  const h = useServer({ RATE_LIMIT_MAX: undefined, STATUS_RATE_LIMIT_MAX: undefined }, stillClock());

  it('answers the 80th and the 200th status check of a minute 200, even once the caller\'s quota is spent', async function () {
    this.timeout(60_000);
    const get = client(h, '127.0.0.81');
    for (let i = 0; i < 120; i++) expect((await get('/api/products')).status).to.equal(200);
    expectRateLimited(await get('/api/products'));
    for (let i = 1; i <= 200; i++) {
      const res = await get('/api/status');
      expect(res.status, `status check ${i}`).to.equal(200);
      expect(remaining(res)).to.equal(0);
    }
  });
});

describe('e2e: the status answers from dependency checks at most a second old', function () {
  let server: ComposedServer;
  const clock = new FakeClock(Date.now());
  const probe = { calls: 0, healthy: true };
  const countingProbe: HealthProbe = {
    name: 'store',
    check: () => {
      probe.calls += 1;
      return probe.healthy ? Promise.resolve() : Promise.reject(new Error('not primary'));
    },
  };
  const status = async (): Promise<number> => (await fetch(`${server.url}/api/status`)).status;

  before(async function () {
    this.timeout(30_000);
    server = await composeStorefront({}, (container) => container.rebind<HealthProbe>(TYPES.DatabaseProbe).toConstantValue(countingProbe), { clock });
  });
  after(async () => {
    await server.close();
  });

  it('asks the store once a second however many status checks arrive, at once or in a row', async function () {
    clock.advance(1_000); // whatever the start-up asked is a second old
    const before = probe.calls;
    const burst = await Promise.all(Array.from({ length: 50 }, () => fetch(`${server.url}/api/status`)));
    expect(burst.map((res) => res.status)).to.deep.equal(Array.from({ length: 50 }, () => 200));
    for (let i = 0; i < 100; i++) expect(await status()).to.equal(200);
    expect(probe.calls - before, 'store checks for 150 status requests within one second').to.equal(1);
    clock.advance(999);
    expect(await status()).to.equal(200);
    expect(probe.calls - before, 'a check 999 ms old is reused').to.equal(1);
    clock.advance(1);
    expect(await status()).to.equal(200);
    expect(probe.calls - before, 'a check 1 s old is not').to.equal(2);
  });

  it('shows a store that went down, and its recovery, without a restart once the last check is a second old', async function () {
    clock.advance(1_000);
    expect(await status(), 'a fresh check of a healthy store').to.equal(200);
    probe.healthy = false;
    expect(await status(), 'the healthy answer, reused for a second').to.equal(200);
    clock.advance(1_000);
    expect(await status(), 'the store is down').to.equal(503);
    probe.healthy = true;
    expect(await status(), 'the degraded answer, reused for a second').to.equal(503);
    clock.advance(1_000);
    expect(await status(), 'and back').to.equal(200);
  });
});
