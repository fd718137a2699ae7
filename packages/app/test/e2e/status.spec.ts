import { describe, it } from 'mocha';
import { expect } from 'chai';
import { call, expectJson, expectUnauthorized, useServer } from './support.js';

describe('e2e: GET /api/status', function () {
  const h = useServer();

  it('answers 200 {status: "ok", checks: {store: "ok", rate_limiter: "ok"}}', async function () {
    const res = await call(h.url, '/api/status');
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(res.body).to.deep.equal({ status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } });
  });

  it('reveals no versions, hosts or secrets in its body or headers', async function () {
    const res = await call(h.url, '/api/status');
    expect(res.text).not.to.match(/\d+\.\d+\.\d+|version|node|koa|mongo|redis:\/\/|secret|uptime|pid/i);
    for (const [name, value] of res.headers) {
      expect(`${name}: ${value}`).not.to.match(/koa|express|node\/?v?\d|x-powered-by/i);
    }
    expect(res.headers.has('server') ? res.headers.get('server') : '').not.to.match(/\d/);
  });

  it('needs no token but answers 401 invalid_token to a bad one', async function () {
    expectUnauthorized(await call(h.url, '/api/status', { token: 'v4.public.bogus' }), 'invalid_token');
  });

  it('answers 503 with status "degraded" and the failing check "down" when a dependency fails', async function () {
    const useCase = h.server.storefront.checkStatus as unknown as { execute: () => Promise<unknown> };
    const original = useCase.execute;
    useCase.execute = async () => ({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
    try {
      const res = await call(h.url, '/api/status');
      expect(res.status).to.equal(503);
      expectJson(res);
      expect(res.body).to.deep.include({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
      expect((await call(h.url, '/api/products')).status, 'other operations still answer').to.equal(200);
    } finally {
      useCase.execute = original;
    }
    expect((await call(h.url, '/api/status')).status).to.equal(200);
  });
});
