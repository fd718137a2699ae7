/**
 * The kitchen display over plain HTTP: GET /kitchen is the page under the Content-Security-Policy,
 * every file it loads is served with its type and an ETag, nothing else of the disk is reachable,
 * and STOREFRONT_KITCHEN_PAGE=false takes it all away. The page in a browser: kitchen-browser.spec.ts.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { useServer } from '../e2e/support.js';
import { rawGet } from '../docs/support.js';

/** The files the page names, as `/kitchen/...` paths. */
function filesOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/kitchen\/[^"]+)"/g)].map((match) => match[1]!);
}

describe('Kitchen display: GET /kitchen', () => {
  const h = useServer();

  it('serves the page as HTML under a policy that allows no inline script and no other origin', async () => {
    const res = await fetch(`${h.url}/kitchen`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).to.include("default-src 'none'").and.include("script-src 'self'").and.include("style-src 'self'").and.include("connect-src 'self'");
    const html = await res.text();
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)/, 'no inline script');
    expect(html).not.to.match(/\sstyle=/, 'no style attribute');
    expect(filesOf(html)).to.deep.equal(['/kitchen/kitchen.css', '/kitchen/main.js']);
  });

  it('serves the modules the page imports, module by module, with their types and ETags (304 when unchanged)', async () => {
    const seen = new Set<string>();
    const queue = ['/kitchen/main.js', '/kitchen/kitchen.css'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await fetch(`${h.url}${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.equal(path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      const etag = res.headers.get('etag')!;
      expect((await fetch(`${h.url}${path}`, { headers: { 'If-None-Match': etag } })).status, path).to.equal(304);
      for (const match of (await res.text()).matchAll(/from '\.\/([a-z-]+\.js)'/g)) queue.push(`/kitchen/${match[1]}`);
    }
    expect(seen.size, 'main.js imports the other modules').to.be.greaterThan(5);
  });

  it('serves nothing else: no declarations, no traversal, no other name', async () => {
    for (const path of ['/kitchen/main.d.ts', '/kitchen/..%2fpackage.json', '/kitchen/%2e%2e%2fstatic%2findex.html', '/kitchen/index.html', '/kitchen/constructor', '/kitchen/__proto__']) {
      const res = await rawGet(h.url, path);
      expect(res.status, path).to.equal(404);
      expect(JSON.parse(res.text), path).to.deep.equal({ error: 'not_found', message: 'No such resource.' });
    }
  });
});

describe('Kitchen display with STOREFRONT_KITCHEN_PAGE=false', () => {
  const h = useServer({ STOREFRONT_KITCHEN_PAGE: 'false' });

  it('answers /kitchen and its files like any unknown path', async () => {
    for (const path of ['/kitchen', '/kitchen/', '/kitchen/main.js', '/kitchen/kitchen.css']) {
      const res = await rawGet(h.url, path);
      expect(res.status, path).to.equal(404);
      expect(JSON.parse(res.text), path).to.deep.equal({ error: 'not_found', message: 'No such resource.' });
    }
  });
});
