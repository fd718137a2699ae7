/**
 * Routing through @koa/router in the real app: which spellings reach a route, and what a request
 * no route answers gets (404, 405 with Allow, OPTIONS 204 with Allow), each admitted and counted.
 */
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { serve, type TestServer } from './support.js';

describe('routing', () => {
  let server: TestServer;
  before(async () => {
    server = await serve();
  });
  after(() => server.close());

  it('reaches a route in any letter case and with one trailing slash; HEAD with GET', async () => {
    for (const [method, path] of [['GET', '/API/Products'], ['GET', '/api/products/'], ['HEAD', '/api/products'], ['GET', '/Api/Orders/']] as const) {
      const res = await fetch(`${server.url}${path}`, { method });
      // /api/orders answers an anonymous caller 401: the route was reached.
      expect(res.status, `${method} ${path}`).to.equal(path.toLowerCase().includes('orders') ? 401 : 200);
    }
  });

  it('answers an unknown path 404 not_found, with the rate-limit headers of a counted request', async () => {
    for (const path of ['/api/menu', '/api/products/x', '/api/prödücts', '/']) {
      const res = await fetch(`${server.url}${encodeURI(path)}`);
      expect(res.status, path).to.equal(404);
      expect(await res.json()).to.deep.equal({ error: 'not_found', message: 'No such resource.' });
      expect(res.headers.get('x-ratelimit-remaining'), path).to.match(/^\d+$/);
    }
  });

  it('answers another method on a known path 405 method_not_allowed with Allow', async () => {
    const res = await fetch(`${server.url}/api/orders`, { method: 'DELETE' });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('POST, HEAD, GET');
    expect(await res.json()).to.include({ error: 'method_not_allowed' });
    const unknownMethod = await fetch(`${server.url}/api/products`, { method: 'PURGE' });
    expect(unknownMethod.status).to.equal(405);
    expect(unknownMethod.headers.get('allow')).to.equal('HEAD, GET');
  });

  it('answers OPTIONS 204 with Allow and no body', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, { method: 'OPTIONS' });
    expect(res.status).to.equal(204);
    expect(res.headers.get('allow')).to.equal('POST');
    expect(await res.text()).to.equal('');
  });
});
