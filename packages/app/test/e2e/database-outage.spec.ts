/**
 * A persistent database (MongoDB, PostgreSQL) that cannot be reached at start (nothing listens on
 * the port): the server still listens and says so on /api/status, and until its store is prepared
 * answers every other request at once with 503 `service_unavailable` and Retry-After (DECISIONS
 * "Ready means ready"), never a driver message. An outage after start is postgres/outage.spec.ts.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { call, expectError, expectNoLeak, useServer } from './support.js';
import { newSigningKey } from './tokens.js';

const UNREACHABLE = [
  { name: 'Mongo', env: { STOREFRONT_STORE: 'mongo', MONGODB_URI: 'mongodb://127.0.0.1:9/storefront_e2e_unreachable' } },
  { name: 'PostgreSQL', env: { STOREFRONT_STORE: 'postgres', DATABASE_URL: 'postgres://storefront@127.0.0.1:9/storefront_e2e_unreachable' } },
];

for (const database of UNREACHABLE) describe(`e2e: ${database.name} database unreachable`, function () {
  const h = useServer({ ...database.env, TOKEN_SECRET_KEY: newSigningKey().paserk });

  it('answers GET /api/status 503 degraded with the database down (checks.store, its public name)', async function () {
    const res = await call(h.url, '/api/status');
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
  });

  it('answers every other request at once with 503 service_unavailable and Retry-After, and no driver message', async function () {
    const cases: [string, Parameters<typeof call>[2]][] = [
      ['/api/products', {}],
      ['/api/search?q=pizza', {}],
      ['/api/auth/login', { json: { email: 'alice@example.com', password: 'alice-password' } }],
      ['/api/auth/refresh', { json: { refresh_token: `ses_${'a'.repeat(20)}.${'b'.repeat(43)}` } }],
      ['/api/rate-limit', {}],
      ['/api/menu', {}],
    ];
    for (const [path, opts] of cases) {
      const start = Date.now();
      const res = await call(h.url, path, opts);
      expect(Date.now() - start, `${path} fails fast`).to.be.below(3_000);
      expectError(res, 503, 'service_unavailable');
      expect(res.headers.get('retry-after'), path).to.equal('1');
      expect(res.text, path).not.to.match(/mongo|postgres|ECONNREFUSED|127\.0\.0\.1|:9\b|topology|server selection/i);
      expectNoLeak(res.text);
    }
  });

  it('does not answer a login with invalid_credentials before its accounts can be read, but 503', async function () {
    const res = await call(h.url, '/api/auth/login', { json: { email: 'alice@example.com', password: 'wrong-password' } });
    expectError(res, 503, 'service_unavailable');
  });
});
