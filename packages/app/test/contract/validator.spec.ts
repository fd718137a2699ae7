/**
 * The contract checker itself: it must accept what the document describes and refuse the drift it
 * is there to catch. Also prints, at the end of a run, how many responses the suites had checked.
 */
import { after, describe, it } from 'mocha';
import { expect } from 'chai';
import { contract, OpenApiContract, type Exchange } from './openapi.js';
import { prismStats } from './prism.js';

const checker = OpenApiContract.fromFile();

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': '"default";q=120;w=60',
  RateLimit: '"default";r=119;t=60',
  'X-RateLimit-Limit': '120',
  'X-RateLimit-Remaining': '119',
  'X-RateLimit-Reset': '1767225600',
};

const PRODUCT = {
  product_id: 'prd_xdj4c092wb0n46cfbwet',
  name: 'Crème brûlée',
  description: 'Vanilla bean custard.',
  category: 'Desserts',
  price: 890,
  currency: 'USD',
  tags: ['french'],
  available: true,
  tax_rate: 700,
  option_groups: [],
};

function exchange(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    method,
    path,
    status,
    text,
    headers: new Headers({
      'X-Request-Id': 'req-1',
      ...RATE_LIMIT_HEADERS,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
      ...headers,
    }),
  };
}

const menu = (products: unknown[], headers: Record<string, string> = {}): Exchange =>
  exchange('GET', '/api/products', 200, { products }, { ETag: '"abc"', 'Cache-Control': 'no-cache', ...headers });

describe('OpenApiContract', () => {
  it('accepts a response the document describes', () => {
    expect(checker.check(menu([PRODUCT]))).to.deep.equal([]);
  });

  it('refuses a field the document does not know', () => {
    expect(checker.check(menu([{ ...PRODUCT, secret: 1 }])).join()).to.match(/additional properties.*secret/);
  });

  it('refuses a missing field and a wrong type', () => {
    const { price: _, ...noPrice } = PRODUCT;
    expect(checker.check(menu([noPrice])).join()).to.include("required property 'price'");
    expect(checker.check(menu([{ ...PRODUCT, price: '8.90' }])).join()).to.include('must be integer');
  });

  it('refuses a status the operation does not list', () => {
    expect(checker.check(exchange('GET', '/api/products', 418, { error: 'teapot', message: 'no' })).join()).to.match(/answered 418/);
  });

  it('refuses a missing required header, and a header value outside its schema', () => {
    expect(checker.check(menu([PRODUCT], { ETag: 'W/"abc"' })).join()).to.include('header ETag');
    const noEtag = menu([PRODUCT]);
    noEtag.headers.delete('etag');
    expect(checker.check(noEtag).join()).to.include('header ETag is required');
    expect(checker.check(menu([PRODUCT], { 'X-RateLimit-Remaining': 'many' })).join()).to.include('header X-RateLimit-Remaining');
    expect(checker.check(menu([PRODUCT], { 'Cache-Control': 'public' })).join()).to.include('header Cache-Control');
  });

  it('refuses a body where the document describes none, and an undocumented media type', () => {
    const notModified = exchange('GET', '/api/products', 304, { products: [] }, { ETag: '"abc"', 'Cache-Control': 'no-cache' });
    expect(checker.check(notModified).join()).to.include('describes no body');
    const html = { ...menu([PRODUCT]), text: '<html></html>' };
    html.headers.set('content-type', 'text/html');
    expect(checker.check(html).join()).to.include('Content-Type');
  });

  it('holds a failed login to exactly {"error": "invalid_credentials"}', () => {
    const login = (body: unknown) => exchange('POST', '/api/auth/login', 401, body, { 'WWW-Authenticate': 'Bearer realm="storefront"' });
    expect(checker.check(login({ error: 'invalid_credentials' }))).to.deep.equal([]);
    expect(checker.check(login({ error: 'invalid_credentials', message: 'Wrong password.' }))).to.not.deep.equal([]);
  });

  it('matches unknown paths, other methods, OPTIONS and HEAD to what the document says of them', () => {
    expect(checker.target('GET', '/api/menu?x=1').name).to.equal('x-unmatched-requests/unknown-path');
    expect(checker.target('DELETE', '/api/products').name).to.equal('x-unmatched-requests/other-method');
    expect(checker.target('OPTIONS', '/api/orders').name).to.equal('x-unmatched-requests/options');
    expect(checker.target('HEAD', '/api/products').name).to.equal('GET /api/products');
    expect(checker.target('get', '/API/Products/').name).to.equal('GET /api/products');
    expect(checker.check(exchange('GET', '/api/menu', 404, { error: 'not_found', message: 'No such resource.' }))).to.deep.equal([]);
    expect(checker.check(exchange('DELETE', '/api/products', 405, { error: 'method_not_allowed', message: 'No.' }))).to.include(
      'header Allow is required but missing',
    );
  });

  it('accepts the HTTP server’s own JSON answers (431 headers_too_large) for any request, and refuses another code', () => {
    const answer = (error: string): Exchange => ({
      method: 'GET',
      path: '/api/search?q=x',
      status: 431,
      text: JSON.stringify({ error, message: 'The request line and headers are larger than 16384 bytes.' }),
      headers: new Headers({ Connection: 'close', 'Content-Type': 'application/json; charset=utf-8' }),
    });
    expect(checker.check(answer('headers_too_large'))).to.deep.equal([]);
    expect(checker.check(answer('validation_failed'))).not.to.deep.equal([]);
  });
});

// At the end of the whole run: how many responses the e2e helpers had checked against the document.
after(function () {
  const shared = contract();
  if (shared.checked === 0) return;
  const documented = shared.documentedResponses();
  const seen = documented.filter((key) => shared.seen.has(key));
  console.log(
    `\n  packages/adapters-http/openapi.yaml: ${shared.checked} responses checked (${shared.seen.size} distinct operation/status pairs; ${seen.length} of ${documented.length} documented responses seen)`,
  );
  console.log(
    `  Stoplight Prism: ${prismStats.checked} exchanges checked in ${(prismStats.milliseconds / 1000).toFixed(1)} s, ${prismStats.routed} of them matched to an operation; ${prismStats.refusedRequests} requests it found invalid, the service refused too`,
  );
  if (process.env['OPENAPI_COVERAGE'] !== undefined) {
    console.log(`  never seen: ${documented.filter((key) => !shared.seen.has(key)).join(', ')}`);
  }
});
