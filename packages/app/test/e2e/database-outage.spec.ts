/**
 * A persistent database (MongoDB, PostgreSQL) while it cannot be reached (nothing listens on
 * the port): the server still starts, says so on /api/status, fails the operations that need the
 * database with a clean 500 at once, and keeps serving the ones that do not.
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

  it('fails database operations at once with 500 internal_error and no driver message', async function () {
    const cases: [string, Parameters<typeof call>[2]][] = [
      ['/api/products', {}],
      ['/api/search?q=pizza', {}],
      ['/api/auth/login', { json: { email: 'alice@example.com', password: 'alice-password' } }],
      ['/api/auth/refresh', { json: { refresh_token: `ses_${'a'.repeat(20)}.${'b'.repeat(43)}` } }],
    ];
    for (const [path, opts] of cases) {
      const start = Date.now();
      const res = await call(h.url, path, opts);
      expect(Date.now() - start, `${path} fails fast`).to.be.below(3_000);
      expectError(res, 500, 'internal_error');
      expect(res.text, path).not.to.match(/mongo|postgres|ECONNREFUSED|127\.0\.0\.1|:9\b|topology|server selection/i);
      expectNoLeak(res.text);
    }
  });

  it('does not answer a login during the outage with invalid_credentials, but 500 internal_error', async function () {
    const res = await call(h.url, '/api/auth/login', { json: { email: 'alice@example.com', password: 'wrong-password' } });
    expectError(res, 500, 'internal_error');
  });

  it('keeps serving what needs no database: rate-limit status, 404 and 405', async function () {
    expect((await call(h.url, '/api/rate-limit')).status).to.equal(200);
    expectError(await call(h.url, '/api/menu'), 404, 'not_found');
    expectError(await call(h.url, '/api/products', { method: 'DELETE' }), 405, 'method_not_allowed');
  });
});
