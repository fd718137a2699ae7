/**
 * The API reference over plain HTTP: GET /openapi.json is packages/adapters-http/openapi.yaml, GET /docs is Swagger
 * UI's page with the files it loads served from swagger-ui-dist, nothing else of the disk is
 * reachable, reading it spends no API quota, and STOREFRONT_DOCS=false takes it all away.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { call, expectError, useServer } from '../e2e/support.js';
import { openApiDocument, rawGet, swaggerUiFile } from './support.js';

/** The files the page names, as `/docs/...` paths, in the order of the page. */
function filesOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((match) => match[1]!);
}

describe('API reference: GET /docs and GET /openapi.json', () => {
  const h = useServer({ RATE_LIMIT_MAX: '5' });

  it('serves packages/adapters-http/openapi.yaml as JSON at /openapi.json', async () => {
    const res = await fetch(`${h.url}/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal(openApiDocument());
  });

  it('serves the page as HTML under a Content-Security-Policy that allows this origin only', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).to.include("default-src 'none'").and.include("script-src 'self'").and.include("connect-src 'self'");
      expect(filesOf(await res.text())).to.include.members(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/storefront-docs.js']);
    }
  });

  it('serves every file the page names, Swagger UI’s as the installed package has them, with their types', async () => {
    const page = await (await fetch(`${h.url}/docs`)).text();
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' };
    for (const path of filesOf(page)) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.equal(types[path.split('.').pop()!]);
      expect(res.headers.get('cache-control'), path).to.equal('no-cache');
      const body = Buffer.from(await res.arrayBuffer());
      if (path !== '/docs/storefront-docs.js') expect(body.equals(swaggerUiFile(path.slice('/docs/'.length))), `${path} is swagger-ui-dist's`).to.equal(true);
    }
  });

  it('answers a repeated read 304 when its ETag still matches', async () => {
    for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/openapi.json']) {
      const first = await fetch(`${h.url}${path}`);
      const etag = first.headers.get('etag');
      expect(etag, path).to.match(/^"[A-Za-z0-9_-]+"$/);
      const again = await fetch(`${h.url}${path}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status, path).to.equal(304);
    }
  });

  it('serves no other file: other names of the package, and every way out of its directory, are 404', async () => {
    const paths = [
      '/docs/package.json',
      '/docs/index.html',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/constructor',
      '/docs/__proto__',
      '/docs/../package.json',
      '/docs/%2e%2e/package.json',
      '/docs/..%2fpackage.json',
      '/docs/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/%2fetc%2fpasswd',
    ];
    for (const path of paths) {
      const res = await rawGet(h.url, path);
      expect(res.status, `${path}: ${res.text.slice(0, 80)}`).to.equal(404);
      expect(JSON.parse(res.text), path).to.deep.equal({ error: 'not_found', message: 'No such resource.' });
    }
  });

  it('spends none of the caller’s API quota: a page load and its files, then GET /api/products has 4 of 5 left', async () => {
    // A client of its own: the unknown paths of the other tests were counted against theirs.
    const client = '127.0.0.71';
    const page = (await rawGet(h.url, '/docs', client)).text;
    for (let load = 0; load < 3; load++) {
      for (const path of ['/docs', ...filesOf(page), '/openapi.json']) {
        const res = await rawGet(h.url, path, client);
        expect(res.status, path).to.equal(200);
        expect(res.headers['x-ratelimit-remaining'], path).to.equal('5');
      }
    }
    const products = await call(h.url, '/api/products', { localAddress: client });
    expect(products.status).to.equal(200);
    expect(products.headers.get('x-ratelimit-remaining')).to.equal('4');
  });

  it('leaves the JSON 404 of unknown /api paths as it is', async () => {
    expectError(await call(h.url, '/api/nope'), 404, 'not_found');
    expectError(await call(h.url, '/api/docs'), 404, 'not_found');
  });
});

describe('API reference with STOREFRONT_DOCS=false', () => {
  const h = useServer({ STOREFRONT_DOCS: 'false' });

  it('answers /docs, its files and /openapi.json like any unknown path', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-bundle.js', '/docs/storefront-docs.js', '/openapi.json']) {
      const res = await rawGet(h.url, path);
      expect(res.status, path).to.equal(404);
      expect(res.headers['content-type'], path).to.equal('application/json; charset=utf-8');
      expect(JSON.parse(res.text), path).to.deep.equal({ error: 'not_found', message: 'No such resource.' });
    }
  });
});
