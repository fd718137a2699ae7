/**
 * The Prism check the e2e helpers run on every exchange (prism.ts): it must accept what the
 * document describes and refuse drift, and count a request as invalid only where the service
 * accepted it.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Exchange } from './openapi.js';
import { prismProblems, prismVerdict, type SentRequest } from './prism.js';

const RATE_LIMIT_HEADERS = {
  'X-Request-Id': 'req-1',
  'RateLimit-Policy': '"default";q=120;w=60',
  RateLimit: '"default";r=119;t=60',
  'X-RateLimit-Limit': '120',
  'X-RateLimit-Remaining': '119',
  'X-RateLimit-Reset': '1767225600',
};

const ME = { customer_id: 'cus_jsgmxmc0me106e1sfan6', email: 'alice@example.com', name: 'Alice', created_at: '2025-03-01T12:00:00.000Z', role: 'customer' };

function exchange(method: string, path: string, status: number, body: unknown, extra: { headers?: Record<string, string>; request?: SentRequest } = {}): Exchange {
  return {
    method,
    path,
    status,
    text: body === undefined ? '' : JSON.stringify(body),
    headers: new Headers({ ...RATE_LIMIT_HEADERS, ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }), ...(extra.headers ?? {}) }),
    ...(extra.request === undefined ? {} : { request: extra.request }),
  };
}

const bearer = (token = 'v4.public.abc'): SentRequest => ({ headers: { Authorization: `Bearer ${token}` }, client: 'fetch' });
const me = (body: unknown, request: SentRequest = bearer()): Exchange => exchange('GET', '/api/me', 200, body, { headers: { 'Cache-Control': 'no-store' }, request });
const BAD_TOKEN = { 'WWW-Authenticate': 'Bearer realm="storefront", error="invalid_token"' };

describe('The Prism check of an exchange', () => {
  it('accepts a request and a response the document describes', () => {
    expect(prismVerdict(me(ME))).to.deep.equal({ routed: true, request: [], response: [] });
  });

  it('refuses a response field the document does not know, and a missing required header', () => {
    expect(prismProblems(me({ ...ME, password_hash: 'x' })).join()).to.match(/additional properties.*password_hash/);
    const noCacheControl = exchange('GET', '/api/me', 200, ME, { request: bearer() });
    expect(prismProblems(noCacheControl).join()).to.match(/cache-control/i);
  });

  it('reads the 401 of a bad token as the document means it: {error, message} (the reading a $ref beside keywords broke)', () => {
    const denied = exchange('GET', '/api/products', 401, { error: 'invalid_token', message: 'The access token is invalid.' }, { headers: BAD_TOKEN, request: bearer('bad') });
    expect(prismProblems(denied)).to.deep.equal([]);
  });

  it('forgives a request it finds invalid when the service refused it too (4xx), never when the service took it', () => {
    const blank = { error: 'validation_failed', message: 'The request is invalid.', details: [{ path: 'q', message: 'is required' }] };
    const refused = exchange('GET', '/api/search', 400, blank, { request: { headers: {}, client: 'fetch' } });
    expect(prismVerdict(refused).request.join()).to.include("required property 'q'");
    expect(prismProblems(refused)).to.deep.equal([]);
    const taken = me(ME, { headers: {}, client: 'fetch' });
    expect(prismProblems(taken).join()).to.match(/Invalid security scheme used.*yet the service answered 200/);
  });

  it('takes the Bearer scheme in any case, as RFC 9110 does and Prism alone does not', () => {
    expect(prismProblems(me(ME, { headers: { Authorization: 'bearer v4.public.abc' }, client: 'fetch' }))).to.deep.equal([]);
  });

  it('survives a path Prism cannot decode (its proxy dies on it) and still checks the response', () => {
    const notFound = exchange('GET', '/api/orders/ord_%ZZ', 404, { error: 'not_found', message: 'No such resource.' }, { request: bearer() });
    expect(prismVerdict(notFound).request.join()).to.include('URIError');
    expect(prismProblems(notFound)).to.deep.equal([]);
    expect(prismProblems({ ...notFound, text: JSON.stringify({ error: 'not_found' }) }).join()).to.include("required property 'message'");
  });

  it('leaves to our own checker what no operation describes: unknown paths, HEAD, and the HTTP server’s own answers', () => {
    expect(prismVerdict(exchange('GET', '/api/menu', 404, { error: 'not_found', message: 'No such resource.' })).routed).to.equal(false);
    expect(prismVerdict(exchange('HEAD', '/api/products', 200, undefined)).routed).to.equal(false);
    const tooLarge: Exchange = { method: 'GET', path: '/api/products', status: 431, text: '{}', headers: new Headers({ 'Content-Type': 'application/json' }) };
    expect(prismProblems(tooLarge)).to.deep.equal([]);
  });
});
