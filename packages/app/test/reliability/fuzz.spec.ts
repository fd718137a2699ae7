/**
 * Property-based fuzzing of the HTTP API: generated methods, paths, query strings, headers and raw
 * body bytes against every endpoint of the real server (startStorefront). Every answer must be a
 * success or a 4xx JSON error: never a 5xx, never a hang, never a dropped connection; the server
 * still answers at the end; and requests it rejected changed nothing.
 *
 * At least FUZZ_REQUESTS requests per run, in concurrent batches. The seed is printed; replay a
 * failing run with FUZZ_SEED=<seed> (and FUZZ_PATH=<path> from fast-check's report to go straight to
 * the shrunk counterexample).
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { after, before, describe, it } from 'mocha';
import type { RunningStorefront } from '../../src/server.js';
import { availableProductIds, call, errorShapeProblem, newCustomer, orderTotal, RELIABILITY_ENV, send, startStorefront, type RawResponse, type Tokens } from './support.js';

const BATCH = 20;
/** FUZZ_REQUESTS may raise the count, never lower it below 10,000. */
const FUZZ_REQUESTS = Math.max(10_000, Number(process.env['FUZZ_REQUESTS'] ?? 0) || 0);
const REQUEST_TIMEOUT_MS = 5_000;
/** Node's own limit (the adapter's HTTP_LIMITS.maxHeaderSize): above it the HTTP parser answers 431 itself. */
const MAX_HEADER_BYTES = 16 * 1024;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
/** `match`: routes with a path parameter (`path` is then a sample that the generator sends). */
const ENDPOINTS: readonly { path: string; methods: readonly string[]; match?: RegExp }[] = [
  { path: '/api/products', methods: ['GET'] },
  { path: '/api/search', methods: ['GET'] },
  { path: '/api/auth/login', methods: ['POST'] },
  { path: '/api/auth/refresh', methods: ['POST'] },
  { path: '/api/auth/logout', methods: ['POST'] },
  { path: '/api/auth/register', methods: ['POST'] },
  { path: '/api/auth/password-reset', methods: ['POST'] },
  { path: '/api/auth/password-reset/confirm', methods: ['POST'] },
  { path: '/api/me/delete', methods: ['POST'] },
  { path: '/api/me', methods: ['GET'] },
  { path: '/api/orders', methods: ['GET', 'POST'] },
  { path: '/api/rate-limit', methods: ['GET'] },
  { path: '/api/status', methods: ['GET'] },
  { path: '/api/store', methods: ['GET'] },
  { path: '/api/store/slots', methods: ['GET'] },
  { path: '/api/store/delivery-quote', methods: ['GET'] },
  { path: '/api/orders/ord_00000000000000000000', methods: ['GET'], match: /^\/api\/orders\/[^/]+$/ },
  { path: '/api/orders/ord_00000000000000000000/cancel', methods: ['POST'], match: /^\/api\/orders\/[^/]+\/cancel$/ },
  // The fuzzer's customer owns no such order and is not staff: both streams answer it 404 or 403
  // (a 200 would be a stream that never ends, and a hang here).
  { path: '/api/orders/ord_00000000000000000000/events', methods: ['GET'], match: /^\/api\/orders\/[^/]+\/events$/ },
  { path: '/api/staff/events', methods: ['GET'] },
  { path: '/api/staff/orders', methods: ['GET'] },
  { path: '/api/staff/orders/ord_00000000000000000000/status', methods: ['POST'], match: /^\/api\/staff\/orders\/[^/]+\/status$/ },
  { path: '/api/staff/products/prd_00000000000000000000', methods: ['PATCH'], match: /^\/api\/staff\/products\/[^/]+$/ },
  { path: '/api/staff/store', methods: ['PATCH'] },
];

/** What the generators need to know about the server under test. */
interface World {
  readonly tokens: Tokens;
  readonly email: string;
  /** Available dishes orderable without options. */
  readonly productIds: readonly string[];
  /** Dishes with option groups (the demo pizzas need a size), and every option id on the menu. */
  readonly optionProductIds: readonly string[];
  readonly optionIds: readonly string[];
}

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer | undefined;
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Characters Node's HTTP client accepts in a header value: tab, visible ASCII, space, obs-text. */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
).map((code) => String.fromCharCode(code));
const headerValue = (maxLength = 64) => fc.string({ unit: headerChar, maxLength });
const tokenChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/=-'.split(''));

/** Every byte of the UTF-8 of `s` percent-encoded: always a valid request-target. */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

const junkPercent = fc.constantFrom('%', '%Z', '%ZZ', '%C3%28', '%FF%FE', '%00', '%E2%82', '%25', '%2F', '%F0%9F%98%80', '%u0041', '%%');
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const queryValue = fc.oneof(
  fc.constantFrom('', '1', '0', '-1', '2', '100', '101', '1.5', '1e3', '0x10', '%201', '+1', '9'.repeat(30), 'NaN', 'null', '[]', 'true'),
  anyText.map(pct),
  fc.tuple(anyText, junkPercent).map(([text, junk]) => `${pct(text)}${junk}`),
  fc.nat(300).map((n) => 'q'.repeat(n)),
  fc.string({ unit: fc.constantFrom('a', '+', '&', '=', ';', '%20', '#', '/', '?', '[', ']', '@', '!', '$', "'", '(', ')', '*', ',', '~'), maxLength: 20 }),
  // Raw bytes outside ASCII in the request line: refused by Node's parser, not by the app.
  fc.constantFrom('é', 'caf\u00e9', '\u00ff'),
);
const queryName = fc.oneof(fc.constantFrom('q', 'page', 'limit', 'q[]', 'page[x]', '__proto__', 'constructor', '', 'type', 'date', 'lat', 'lng'), anyText.map(pct));
const queryString = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 6,
    arbitrary: fc.array(fc.tuple(queryName, queryValue, fc.boolean()), { minLength: 1, maxLength: 6 }).map(
      (pairs) => `?${pairs.map(([name, value, bare]) => (bare && value === '' ? name : `${name}=${value}`)).join('&')}`,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&&&', '?=', '?q', '?q=a&q=b', '?page=1&page=2', '?limit=1&limit=1', '?q=%', '?page=%00') },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.tuple(fc.constantFrom('pickup', 'delivery', 'drone', ''), fc.constantFrom('2030-01-16', '2030-02-30', '9999-12-31', '0000-01-01', '2030-1-1', '')).map(([type, date]) => `?type=${type}&date=${date}`),
      fc.tuple(fc.oneof(fc.double(), fc.constantFrom(52.5219, 90, -90.0001, 1e308)), fc.oneof(fc.double(), fc.constantFrom(13.4132, 180, 181))).map(([lat, lng]) => `?lat=${lat}&lng=${lng}`),
    ),
  },
);

const unknownPath = fc.oneof(
  fc.constantFrom('/', '/api', '/api/', '/api/orders/1', '/api/ORDERS', '/api/products/..', '/api/./me', '//api/me', '/api/me/', '/favicon.ico', '/.env', '/api/auth', '/api/admin', '/*', '/api/%2e%2e/status', '/api/products%00', '/api/status;x=1', '/api/me%2F'),
  fc.tuple(fc.constantFrom('/', '/api/', '/api/auth/', '/api/orders/'), anyText).map(([prefix, tail]) => prefix + pct(tail)),
  fc.tuple(fc.constantFrom('/api/', '/api/orders/'), junkPercent).map(([prefix, junk]) => prefix + junk),
  fc.integer({ min: 1_000, max: 7_000 }).map((n) => `/api/${'a'.repeat(n)}`),
);

function authorization(world: World): fc.Arbitrary<string | undefined> {
  const { access_token: token, refresh_token: refresh } = world.tokens;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: fc.constant(`Bearer ${token}`) },
    {
      weight: 4,
      arbitrary: fc.oneof(
        fc.constantFrom('Bearer', 'Bearer ', 'Basic YWxpY2U6YWxpY2UtcGFzc3dvcmQ=', 'Digest x', 'Token abc', `bearer   ${token}`, `BEARER ${token}`, `Bearer ${token} `, `Bearer ${token}.`, `Bearer ${refresh}`, `Bearer ${token},Bearer ${token}`, 'Bearer v4.public.', 'Bearer v4.local.AAAA', 'Bearer v2.public.AAAA.e30'),
        fc.string({ unit: tokenChar, minLength: 1, maxLength: 200 }).map((junk) => `Bearer ${junk}`),
        fc.nat(token.length - 1).chain((i) => tokenChar.map((c) => `Bearer ${token.slice(0, i)}${c === token[i] ? (c === 'A' ? 'B' : 'A') : c}${token.slice(i + 1)}`)),
        fc.integer({ min: 4_000, max: 9_000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
        headerValue(100),
      ),
    },
  );
}

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constantFrom(
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json; charset=bogus',
        'application/json; charset=',
        'application/json;;',
        'text/plain',
        'text/html',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'application/vnd.api+json',
        'application/merge-patch+json',
        'application/xml',
        '*/*',
        '',
        'application/json, text/plain',
        'json',
      ),
      headerValue(80),
    ),
  },
);

const idempotencyKey = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 255 }).filter((key) => /^[\x21-\x7e]+$/.test(key)),
      // UTF-8 bytes travel as latin1 characters on the wire (Node refuses code points above U+00FF).
      fc.constantFrom('', ' ', '\t', 'a b', 'x'.repeat(256), 'x'.repeat(4096), Buffer.from('ключ').toString('latin1'), 'clé', 'k\u00ff', '"quoted"', 'a,b'),
      headerValue(300),
      fc.array(fc.constantFrom('dup-1', 'dup-2', ''), { minLength: 2, maxLength: 3 }),
    ),
  },
);

const contentEncoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'GZIP') },
);

/** Headers outside the ones the transport owns (Content-Length, Transfer-Encoding, Host...). */
const extraHeaderName = fc.oneof(
  fc.constantFrom('accept', 'accept-encoding', 'accept-language', 'x-request-id', 'if-none-match', 'x-forwarded-for', 'cookie', 'origin', 'referer', 'user-agent', 'x-http-method-override', 'range', 'forwarded'),
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'.split('')), minLength: 1, maxLength: 24 }).map((name) => `x-${name}`),
);
const extraHeaders = fc.dictionary(extraHeaderName, fc.oneof(headerValue(100), fc.constantFrom('*', 'W/"x"', '"x", *', '127.0.0.1, 10.0.0.1', '../../etc/passwd')), { maxKeys: 4 });

/** Text with what TEXT_RULE refuses (issue 32: NUL, unpaired surrogates, controls, bidi overrides) among plain letters. */
const oddText = (maxLength: number) =>
  fc.string({ unit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('a', 'ß', '😀', ' ') }, fc.constantFrom('\u0000', '\ud800', '\udc00', '\u0007', '\u001b', '\r', '\n', '\t', '\u0085', '\u2028', '\u202e', '\u2066', '\u200f')), minLength: 1, maxLength });

/** JSON values shaped like a request of each endpoint, with every field possibly of the wrong type. */
function shapedBody(world: World): fc.Arbitrary<unknown> {
  const anyJson = fc.jsonValue({ maxDepth: 3 });
  const sid = world.tokens.refresh_token.split('.')[0]!;
  const productId = fc.oneof(
    fc.constantFrom(...world.productIds),
    fc.constantFrom(...world.optionProductIds),
    fc.constantFrom('', 'prd_', 'prd_unknown', 'x'.repeat(65)),
    oddText(20).map((text) => `prd_${text}`),
    anyJson,
  );
  const quantity = fc.oneof(fc.integer({ min: 1, max: 99 }), fc.constantFrom(0, -1, 100, 1.5, 1e308, -0, '2', null, true), anyJson);
  const optionId = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...world.optionIds) }, fc.constantFrom('', 'opt_', 'opt_unknown', 'x'.repeat(65)), oddText(20), anyJson);
  // Real option ids (any product's: mostly refused as invalid_options, sometimes a fit), duplicates, junk.
  const options = fc.oneof(fc.array(optionId, { maxLength: 5 }), fc.constantFrom([], [world.optionIds[0]!, world.optionIds[0]!]), anyJson);
  const address = fc.oneof(
    fc.record(
      {
        line1: fc.oneof(fc.string({ maxLength: 210 }), oddText(40), anyJson),
        line2: fc.oneof(fc.string({ maxLength: 210 }), oddText(40), anyJson),
        city: fc.oneof(fc.constantFrom('Berlin', ''), oddText(20), anyJson),
        postal_code: fc.oneof(fc.constantFrom('10178', 'x'.repeat(21)), oddText(10), anyJson),
        lat: fc.oneof(fc.constantFrom(52.5219, 52.53, 48.137, 91, -90), fc.double(), anyJson),
        lng: fc.oneof(fc.constantFrom(13.4132, 13.42, 11.575, 181), fc.double(), anyJson),
        instructions: fc.oneof(fc.string({ maxLength: 310 }), oddText(60), anyJson),
        floor: anyJson,
      },
      { requiredKeys: [] },
    ),
    anyJson,
  );
  const fulfilment = fc.oneof(
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('pickup', 'delivery', 'drone', ''), anyJson),
        time: fc.oneof(fc.constantFrom('asap', 'ASAP', '2030-01-16T12:30:00Z', '2030-02-30T12:00:00Z', '2000-01-01T00:00:00Z', 'tomorrow', ''), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), anyJson),
        address,
        when: anyJson,
      },
      { requiredKeys: [] },
    ),
    anyJson,
  );
  const tip = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(-1, 100_001, 1.5, '200', null), anyJson);
  const line = fc.oneof(
    { weight: 6, arbitrary: fc.record({ product_id: productId, quantity }, { requiredKeys: [] }) },
    { weight: 3, arbitrary: fc.record({ product_id: productId, quantity, options }, { requiredKeys: ['product_id', 'quantity'] }) },
    { weight: 1, arbitrary: fc.record({ product_id: productId, quantity, price: fc.integer(), extra: anyJson }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: anyJson },
  );
  return fc.oneof(
    fc.record({ items: fc.oneof({ weight: 5, arbitrary: fc.array(line, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.array(line, { minLength: 49, maxLength: 53 }) }, { weight: 1, arbitrary: anyJson }) }, { requiredKeys: [] }),
    fc.record({ items: fc.array(line, { maxLength: 3 }), amount: fc.integer(), customer_id: fc.string() }, { requiredKeys: ['items'] }),
    fc.record({ items: fc.array(line, { minLength: 1, maxLength: 3 }), fulfilment, tip }, { requiredKeys: ['items'] }),
    fc.record({ email: fc.oneof(fc.constantFrom(world.email, world.email.toUpperCase(), ` ${world.email} `, 'nobody@example.com', '', 'a'.repeat(300)), anyJson), password: fc.oneof(fc.string({ maxLength: 40 }), oddText(20), fc.constantFrom('', 'x'.repeat(1025)), anyJson) }, { requiredKeys: [] }),
    fc.record({
      refresh_token: fc.oneof(
        fc.constantFrom(`${sid}.`, `${sid}.wrong-secret`, `${sid}`, `.${sid}`, `${world.tokens.refresh_token}x`, world.tokens.refresh_token.slice(0, -1), 'x'.repeat(5000)),
        fc.string({ unit: tokenChar, maxLength: 60 }).map((secret) => `${sid}.${secret}`),
        anyJson,
      ),
    }, { requiredKeys: [] }),
    anyJson,
  );
}

function nest(depth: number, kind: number): string {
  switch (kind) {
    case 0:
      return '['.repeat(depth) + ']'.repeat(depth);
    case 1:
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    default:
      return `{"items":[${'{"product_id":'.repeat(depth)}1${'}'.repeat(depth)}]}`;
  }
}

function body(world: World): fc.Arbitrary<Buffer | undefined> {
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 8, arbitrary: shapedBody(world).map((value) => utf8(JSON.stringify(value) ?? 'null')) },
    { weight: 3, arbitrary: fc.json({ maxDepth: 4 }).map(utf8) },
    // Deep nesting, below and above the 16 KiB limit.
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 12_000 }), fc.nat(2)).map(([depth, kind]) => utf8(nest(depth, kind))) },
    // Huge strings, below and above the 16 KiB limit.
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 1_000, max: 40_000 }), fc.constantFrom('email', 'password', 'refresh_token', 'items', 'product_id')).map(([n, field]) =>
        utf8(field === 'product_id' ? `{"items":[{"product_id":"${'p'.repeat(n)}","quantity":1}]}` : `{"${field}":"${'x'.repeat(n)}","password":"p"}`),
      ),
    },
    // Invalid UTF-8 inside and outside string literals.
    {
      weight: 2,
      arbitrary: fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.constantFrom('email', 'password', 'refresh_token', 'product_id', 'raw')).map(([bytes, field]) => {
        const junk = Buffer.from(bytes);
        if (field === 'raw') return junk;
        if (field === 'product_id') return Buffer.concat([utf8('{"items":[{"product_id":"'), junk, utf8('","quantity":1}]}')]);
        return Buffer.concat([utf8(`{"${field}":"`), junk, utf8('","password":"x"}')]);
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...[Buffer.from([0xc3, 0x28]), Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), Buffer.from([0xed, 0xa0, 0x80])]) },
    // Duplicate keys and prototype keys.
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `{"items":[],"items":[{"product_id":"${world.productIds[0]}","quantity":1}]}`,
        `{"items":[{"product_id":"${world.productIds[0]}","quantity":1,"quantity":0}]}`,
        `{"items":[{"product_id":"${world.productIds[0]}","product_id":7,"quantity":1}]}`,
        `{"email":"${world.email}","email":1,"password":"p"}`,
        `{"refresh_token":1,"refresh_token":"${world.tokens.refresh_token.split('.')[0]}.x"}`,
        `{"__proto__":{"items":[{"product_id":"${world.productIds[0]}","quantity":1}]}}`,
        '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}},"items":[]}',
        '{"items":{"length":1,"0":{"product_id":"x","quantity":1}}}',
        '{"email":{"toString":"x"},"password":{"valueOf":1}}',
      ).map(utf8),
    },
    // Not JSON at all.
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom('', ' ', '\n', 'null', '""', '0', '-0', '1e999', '[]', '{}', '{', '}', '{"a":}', "{'a':1}", '{"a":1,}', 'undefined', 'NaN', '\u0000', 'email=a&password=b', '<xml/>', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"a":1}{"b":2}', '[1,2', '"\\x41"'),
        fc.string({ unit: 'binary', maxLength: 200 }),
      ).map(utf8),
    },
    // Compressed bodies: valid, corrupt, and a small gzip that inflates past the limit.
    { weight: 1, arbitrary: fc.constantFrom(gzipSync('{"email":"a@b.c","password":"x"}'), gzipSync(' '.repeat(2_000_000)), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02])) },
  );
}

function fuzzRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const knownRoute = fc.constantFrom(...ENDPOINTS).chain((endpoint) =>
    fc.tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...endpoint.methods) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(endpoint.path) },
        { weight: 1, arbitrary: fc.constantFrom(`${endpoint.path}/`, endpoint.path.toUpperCase(), `/${endpoint.path}`, `${endpoint.path}%20`, `${endpoint.path}.json`) },
      ),
    ),
  );
  const route = fc.oneof({ weight: 6, arbitrary: knownRoute }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...METHODS), unknownPath) });
  return fc
    .record({
      route,
      query: queryString,
      authorization: authorization(world),
      contentType,
      idempotencyKey,
      contentEncoding,
      extra: extraHeaders,
      oversized: fc.oneof({ weight: 60, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 40_000 }) }),
      body: body(world),
    })
    .map(({ route: [method, path], query, authorization: auth, contentType: type, idempotencyKey: key, contentEncoding: encoding, extra, oversized, body: bytes }) => {
      const headers: Record<string, string | string[]> = { ...extra };
      if (auth !== undefined) headers['authorization'] = auth;
      if (type !== undefined) headers['content-type'] = type;
      if (key !== undefined) headers['idempotency-key'] = key;
      if (encoding !== undefined) headers['content-encoding'] = encoding;
      if (oversized > 0) headers['x-padding'] = 'p'.repeat(oversized);
      return { method, path: path + query, headers, body: bytes };
    });
}

// ---------------------------------------------------------------------------------------------
// The property

/**
 * Requests that would legitimately end the fuzzer's own session are not sent with its live token:
 * a successful logout is not a rejected request. (Other paths and all other tokens still are.)
 */
function sparingTheSession(request: FuzzRequest, world: World): FuzzRequest {
  const auth = request.headers['authorization'];
  let decoded = request.path;
  try {
    decoded = decodeURIComponent(request.path);
  } catch {
    // keep the raw path
  }
  if (typeof auth !== 'string' || !auth.includes(world.tokens.access_token) || !/logout/i.test(decoded)) return request;
  return { ...request, headers: { ...request.headers, authorization: 'Bearer not-the-live-token' } };
}

function headerBytes(request: FuzzRequest): number {
  return Object.entries(request.headers).reduce((sum, [name, value]) => sum + name.length + (Array.isArray(value) ? value.join('').length : value.length) + 4, request.path.length + 64);
}

function describeRequest(request: FuzzRequest): string {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, typeof value === 'string' && value.length > 120 ? `${value.slice(0, 120)}…(${value.length})` : value]));
  const bytes = request.body === undefined ? '(none)' : `${request.body.length} bytes ${JSON.stringify(request.body.subarray(0, 160).toString('latin1'))}`;
  return `${request.method} ${request.path.slice(0, 200)}\n  headers ${JSON.stringify(headers)}\n  body ${bytes}`;
}

/** Why the answer to `request` breaks the property, or null. */
function verdict(request: FuzzRequest, res: RawResponse): string | null {
  if (res.status >= 500) return `a ${res.status}: ${res.text.slice(0, 300)}`;
  if (res.status < 200) return `status ${res.status}`;
  // Node's HTTP parser refuses a request line with raw non-ASCII bytes before the app runs; the
  // server answers it as a JSON 400 bad_request (see docs/security.md).
  if (/[^\x21-\x7e]/.test(request.path)) return isParserAnswer(request, res, 400, 'bad_request') ? null : verdictOfApp(request, res);
  // Likewise a header block over maxHeaderSize gets a JSON 431. The estimate of the block's size is
  // within a few hundred bytes.
  const size = headerBytes(request);
  if (res.status === 431) {
    if (!isParserAnswer(request, res, 431, 'headers_too_large')) return `a 431 that is not the JSON headers_too_large: ${res.text.slice(0, 200)}`;
    return size > MAX_HEADER_BYTES - 2_048 ? null : `a 431 for ${size} bytes of headers`;
  }
  if (size > MAX_HEADER_BYTES + 2_048) return `${size} bytes of headers answered ${res.status}, not 431`;
  return verdictOfApp(request, res);
}

/** An answer the server wrote for its HTTP parser: JSON with the given status and code (no body to a HEAD). */
function isParserAnswer(request: FuzzRequest, res: RawResponse, status: number, code: string): boolean {
  if (res.status !== status || res.headers['content-type'] !== 'application/json; charset=utf-8') return false;
  if (request.method === 'HEAD') return res.text === '';
  try {
    return (JSON.parse(res.text) as { error?: unknown }).error === code;
  } catch {
    return false;
  }
}

/**
 * The property for an answer of the app itself. A random request has no one expected answer, so any
 * well-formed JSON 4xx, or a 2xx from a documented route, is right; a 5xx never is.
 */
function verdictOfApp(request: FuzzRequest, res: RawResponse): string | null {
  if (res.status >= 500) return `a ${res.status}: ${res.text.slice(0, 300)}`;
  if (res.status >= 400) {
    const problem = errorShapeProblem(res, request.method);
    return problem === null ? null : `a ${res.status} that is not a JSON error: ${problem}`;
  }
  // A success only ever comes from a documented route (the router matches case-insensitively and
  // with or without a trailing slash): nothing undocumented is reachable.
  const path = request.path.split('?')[0]!.toLowerCase().replace(/(.)\/$/, '$1');
  const route = ENDPOINTS.find((endpoint) => (endpoint.match === undefined ? endpoint.path === path : endpoint.match.test(path)));
  const allowed = route !== undefined && (route.methods.includes(request.method) || request.method === 'OPTIONS' || (request.method === 'HEAD' && route.methods.includes('GET')));
  if (!allowed) return `a ${res.status} for an undocumented route`;
  if (res.body.length > 0 && request.method !== 'HEAD') {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('application/json')) return `a ${res.status} with Content-Type ${type}`;
    try {
      JSON.parse(res.text);
    } catch {
      return `a ${res.status} whose body is not JSON`;
    }
  }
  return null;
}

describe('Fuzzing the HTTP API', function () {
  this.timeout(120_000);
  let server: RunningStorefront;
  let world: World;
  const agent = new http.Agent({ keepAlive: true, maxSockets: BATCH });

  before(async () => {
    server = await startStorefront({ ...RELIABILITY_ENV });
    const fuzzer = await newCustomer(server, 'fuzz');
    const menu = (await call(server.url, '/api/products')).json as { products: { product_id: string; option_groups: { options: { option_id: string }[] }[] }[] };
    const withOptions = menu.products.filter((p) => p.option_groups.length > 0);
    world = {
      tokens: fuzzer.tokens,
      email: fuzzer.email,
      productIds: await availableProductIds(server.url),
      optionProductIds: withOptions.map((p) => p.product_id),
      optionIds: withOptions.flatMap((p) => p.option_groups.flatMap((g) => g.options.map((o) => o.option_id))),
    };
    expect(world.optionIds, 'the demo menu has options to fuzz with').to.not.be.empty;
  });
  after(async () => {
    agent.destroy();
    await server?.close();
  });

  it('answers every generated request with a success on a documented route or a 4xx JSON error, never hangs or crashes, and rejected requests change nothing', async () => {
    const seed = process.env['FUZZ_SEED'] !== undefined ? Number(process.env['FUZZ_SEED']) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
    const replayPath = process.env['FUZZ_PATH'];
    console.log(`      fuzz seed ${seed} (replay with FUZZ_SEED=${seed}); ${FUZZ_REQUESTS} requests in batches of ${BATCH}`);
    const ordersBefore = await orderTotal(server.url, world.tokens.access_token);
    let sent = 0;
    let created = 0;
    const statuses = new Map<number, number>();
    const started = performance.now();

    await fc.assert(
      fc.asyncProperty(fc.array(fuzzRequest(world), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const problems = await Promise.all(
          batch.map(async (generated) => {
            const request = sparingTheSession(generated, world);
            sent += 1;
            let res: RawResponse;
            try {
              const { body: bytes, ...rest } = request;
              res = await send(server.url, { ...rest, agent, timeoutMs: REQUEST_TIMEOUT_MS, ...(bytes === undefined ? {} : { body: bytes }) });
            } catch (error) {
              return `no answer (${(error as Error).message})\n  ${describeRequest(request)}`;
            }
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);

            if (res.status === 201 && request.method === 'POST' && res.headers['idempotent-replayed'] === undefined) created += 1;
            const problem = verdict(request, res);
            return problem === null ? null : `${problem}\n  ${describeRequest(request)}`;
          }),
        );
        const failed = problems.filter((problem) => problem !== null);
        expect(failed, failed.join('\n')).to.deep.equal([]);
      }),
      {
        seed,
        numRuns: Math.ceil(FUZZ_REQUESTS / BATCH),
        ...(replayPath === undefined ? {} : { path: replayPath }),
        // No shrinking: each failure names its request already, and shrinking a hang costs 5 s a step.
        endOnFailure: true,
        // fast-check's own report prints every generated body in full; this one stays readable.
        asyncReporter: async (details) => {
          if (!details.failed) return;
          const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(
            `the property failed (replay with FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''}) after ${details.numRuns} batches, shrunk ${details.numShrinks} times:\n${cause.slice(0, 6_000)}`,
          );
        },
      },
    );

    const seconds = (performance.now() - started) / 1000;
    console.log(`      ${sent} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    expect(sent).to.be.at.least(FUZZ_REQUESTS);

    // The server is still up, and nothing the fuzzer was refused left a trace.
    expect((await call(server.url, '/api/status')).status).to.equal(200);
    expect(await orderTotal(server.url, world.tokens.access_token), 'orders = before + those answered 201').to.equal(ordersBefore + created);
    const me = await call(server.url, '/api/me', { token: world.tokens.access_token });
    expect(me.status, `the fuzzer's access token still works: ${me.text}`).to.equal(200);
    expect(me.json.email).to.equal(world.email);
    const refreshed = await call(server.url, '/api/auth/refresh', { json: { refresh_token: world.tokens.refresh_token } });
    expect(refreshed.status, `the fuzzer's refresh token was never rotated or revoked: ${refreshed.text}`).to.equal(200);
  });
});
