/**
 * Shared helpers of the end-to-end suite: every test drives a real Storefront server listening on
 * an ephemeral port, over HTTP (Node's fetch; node:http / node:net where fetch cannot do it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'mocha';
import { expect } from 'chai';
import type { StartOptions, startStorefront } from '../../src/server.js';
import { assertMatchesContract } from '../contract/openapi.js';
import { startStorefrontForRun } from '../mongo-mode.js';

export type RunningServer = Awaited<ReturnType<typeof startStorefront>>;
export type Env = Record<string, string | undefined>;

/** Fast hashing, no throttling: what most tests run with. */
export const BASE_ENV: Readonly<Record<string, string>> = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  SCRYPT_LOG_N: '10',
  RATE_LIMIT_MAX: '100000',
  LOGIN_RATE_LIMIT_MAX: '1000',
};

export const ALICE = { email: 'alice@example.com', password: 'alice-password' } as const;
export const BOB = { email: 'bob@example.com', password: 'bob-password' } as const;
export const CAROL = { email: 'carol@example.com', password: 'carol-password' } as const;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * A server on the store of this run (see ../mongo-mode.ts): memory, or with MONGODB_URI a MongoDB
 * database of its own with the demo data, dropped on close. Resolves once it serves. `options.clock`
 * (a FakeClock from @storefront/testing) lets a test move the domain's time instead of sleeping.
 */
export function startServer(env: Env = {}, options: StartOptions = {}): Promise<RunningServer> {
  return startStorefrontForRun({ ...BASE_ENV, ...env }, options);
}

export interface ServerHandle {
  readonly server: RunningServer;
  /** Base address without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
}

/** Starts a server in a `before` hook of the enclosing suite and closes it in `after`. */
export function useServer(env: Env = {}, options: StartOptions = {}): ServerHandle {
  let running: RunningServer | undefined;
  before(async function () {
    this.timeout(30_000);
    running = await startServer(env, options);
  });
  after(async function () {
    this.timeout(15_000);
    if (running !== undefined) await running.close();
    running = undefined;
  });
  return {
    get server(): RunningServer {
      if (running === undefined) throw new Error('the server is not running');
      return running;
    },
    get url(): string {
      return baseOf(this.server);
    },
  };
}

export function baseOf(server: RunningServer): string {
  return server.url.replace(/\/+$/, '');
}

/** A menu file in a temporary directory; `cleanup` removes it. */
export function writeMenuFile(document: unknown): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-e2e-'));
  const path = join(dir, 'menu.json');
  writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface Res {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface RequestOptions {
  readonly method?: string;
  /** Serialised as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
  /** A raw body; set `Content-Type` yourself. */
  readonly body?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Connect from this local address (127.0.0.x) to appear as another client IP; uses node:http. */
  readonly localAddress?: string;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function prepare(opts: RequestOptions): { method: string; headers: Record<string, string>; body: string | Uint8Array | undefined } {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  if (opts.token !== undefined) headers['Authorization'] = `Bearer ${opts.token}`;
  const method = opts.method ?? (body === undefined ? 'GET' : 'POST');
  return { method, headers, body };
}

/**
 * One HTTP request to `base + path`. Like `httpCall`, it checks the response against
 * packages/adapters-http/openapi.yaml and throws when the document does not describe it.
 */
export async function call(base: string, path: string, opts: RequestOptions = {}): Promise<Res> {
  if (opts.localAddress !== undefined) return httpCall(base, path, opts);
  const { method, headers, body } = prepare(opts);
  const res = await fetch(base + path, { method, headers, body: body ?? null, redirect: 'manual' });
  const text = await res.text();
  assertMatchesContract({ method, path, status: res.status, headers: res.headers, text, request: { headers, body, client: 'fetch' } });
  return { status: res.status, headers: res.headers, text, body: parseBody(text) };
}

export interface HttpCallOptions extends RequestOptions {
  /** Body written in these pieces with chunked transfer encoding (no Content-Length). */
  readonly chunks?: readonly (string | Uint8Array)[];
}

/** The same through node:http: for local addresses, odd header values and chunked bodies. */
export function httpCall(base: string, path: string, opts: HttpCallOptions = {}): Promise<Res> {
  const { method, headers, body } = prepare(opts);
  const url = new URL(base);
  return new Promise<Res>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: Number(url.port),
        method,
        path,
        headers,
        agent: false,
        ...(opts.localAddress === undefined ? {} : { localAddress: opts.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const received = { status: res.statusCode ?? 0, headers: toHeaders(res.rawHeaders), text, body: parseBody(text) };
          try {
            const sent = opts.chunks === undefined ? body : Buffer.concat(opts.chunks.map((c) => Buffer.from(c)));
            assertMatchesContract({ method, path, ...received, request: { headers, body: sent, chunked: opts.chunks !== undefined, client: 'node:http' } });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
            return;
          }
          resolve(received);
        });
      },
    );
    req.on('error', reject);
    if (opts.chunks !== undefined) {
      for (const chunk of opts.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(body);
    }
  });
}

function toHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Everything the server sent, as latin1. */
  readonly raw: string;
}

/**
 * Writes raw bytes on a TCP connection and reads until the server closes it (or `timeoutMs`
 * passes). The request should say `Connection: close`.
 */
export function rawRequest(base: string, request: string | Uint8Array, timeoutMs = 5_000): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

export function parseRawResponse(data: Buffer): RawResponse {
  const raw = data.toString('latin1');
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: new Headers(), text: '', raw };
  const lines = raw.slice(0, end).split('\r\n');
  const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let bodyBytes = data.subarray(Buffer.byteLength(raw.slice(0, end + 4), 'latin1'));
  if ((headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) bodyBytes = dechunk(bodyBytes);
  const length = headers.get('content-length');
  if (length !== null) bodyBytes = bodyBytes.subarray(0, Number(length));
  return { status: statusMatch === null ? 0 : Number(statusMatch[1]), headers, text: bodyBytes.toString('utf8'), raw };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < data.length) {
    const lineEnd = data.indexOf('\r\n', pos, 'latin1');
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(pos, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

// ---------------------------------------------------------------------------------------------
// Assertions

/** The response is JSON, declared as `application/json; charset=utf-8`. */
export function expectJson(res: Res | RawResponse): void {
  const type = (res.headers.get('content-type') ?? '').toLowerCase().replace(/\s+/g, '');
  expect(type, 'Content-Type').to.equal(JSON_CONTENT_TYPE.replace(/\s+/g, ''));
  expect(() => JSON.parse(res.text), `body is JSON: ${res.text.slice(0, 200)}`).not.to.throw();
}

/** No stack frame, file path, driver message or `Error:` text in a body. */
export function expectNoLeak(text: string): void {
  expect(text, 'stack frame').not.to.match(/\bat\s+\S+\s+\([^)]*:\d+:\d+\)|\bat\s+(file:|node:|\/)\S*:\d+/);
  expect(text, 'file path').not.to.match(/\/(work|home|usr|src|dist|tmp|node_modules)\/|\.(ts|js|mjs):\d+/);
  expect(text, 'error text').not.to.match(/\bError:|TypeError|ReferenceError|SyntaxError|RangeError/);
}

/**
 * The response is the error `code` with `status`: JSON `{error, message, ...}` with a
 * human sentence, no stack trace, and an `X-Request-Id`.
 */
export function expectError(res: Res | RawResponse, status: number, code: string): void {
  const body = parseBody(res.text) as Record<string, unknown> | undefined;
  expect(res.status, `status (body ${res.text.slice(0, 300)})`).to.equal(status);
  expectJson(res);
  expect(body, 'error body').to.be.an('object');
  expect(body!['error'], 'error code').to.equal(code);
  if (code !== 'invalid_credentials') {
    expect(body!['message'], 'message').to.be.a('string').and.not.equal('');
  }
  for (const key of Object.keys(body!)) expect(['error', 'message', 'details', 'retry_after'], 'error body key').to.include(key);
  if (body!['details'] !== undefined) {
    expect(body!['details']).to.be.an('array');
    for (const d of body!['details'] as unknown[]) {
      expect(d).to.be.an('object');
      expect((d as Record<string, unknown>)['path']).to.be.a('string');
      expect((d as Record<string, unknown>)['message']).to.be.a('string');
    }
  }
  expect(res.headers.get('x-request-id'), 'X-Request-Id').to.be.a('string').and.not.equal('');
  expectNoLeak(res.text);
}

/** A 400 validation_failed whose details name `path` (exactly or as a prefix/suffix match). */
export function expectValidation(res: Res, ...paths: string[]): void {
  expectError(res, 400, 'validation_failed');
  const details = (res.body as { details?: { path: string }[] }).details;
  expect(details, 'details').to.be.an('array').that.is.not.empty;
  for (const path of paths) {
    const found = details!.some((d) => d.path === path || d.path.endsWith(path) || d.path.startsWith(path));
    expect(found, `details name ${path}: ${JSON.stringify(details)}`).to.equal(true);
  }
}

/** A 401 with a Bearer challenge; `invalidToken` when a token was presented. */
export function expectUnauthorized(res: Res, code: 'unauthorized' | 'invalid_token' | 'token_expired'): void {
  expectError(res, 401, code);
  const challenge = res.headers.get('www-authenticate') ?? '';
  expect(challenge, 'WWW-Authenticate').to.match(/^Bearer\b/);
  expect(challenge, 'WWW-Authenticate').to.include('realm="storefront"');
  if (code === 'unauthorized') expect(challenge).not.to.include('error=');
  else expect(challenge, 'WWW-Authenticate').to.include('error="invalid_token"');
}

export function headerNames(headers: Headers): string[] {
  return [...headers.keys()].map((k) => k.toLowerCase()).sort();
}

// ---------------------------------------------------------------------------------------------
// Domain shortcuts

export interface Tokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly refresh_token: string;
}

export async function login(base: string, email: string, password: string, opts: RequestOptions = {}): Promise<Tokens> {
  const res = await call(base, '/api/auth/login', { ...opts, json: { email, password } });
  expect(res.status, `login of ${email}: ${res.text}`).to.equal(200);
  return res.body as Tokens;
}

let customerSeq = 0;

/** An email address no other test uses. */
export function freshEmail(label: string): string {
  customerSeq += 1;
  return `${label}-${process.pid}-${customerSeq}-${Date.now()}@example.com`;
}

/** A brand-new active customer (so that its orders and quota start empty), logged in. */
export async function registerCustomer(handle: ServerHandle, label = 'e2e'): Promise<{ email: string; password: string }> {
  const email = freshEmail(label);
  const password = 'e2e-password-123';
  await handle.server.storefront.registerCustomer.execute({ email, name: `E2E ${label} ${customerSeq}`, password });
  return { email, password };
}

/**
 * A brand-new active customer (so that its orders and quota start empty), logged in from
 * 127.0.0.99 so that the login does not spend the quota of the tests' usual address.
 */
export async function newCustomer(handle: ServerHandle, label = 'e2e'): Promise<{ email: string; password: string; tokens: Tokens; token: string }> {
  const { email, password } = await registerCustomer(handle, label);
  const tokens = await login(handle.url, email, password, { localAddress: '127.0.0.99' });
  return { email, password, tokens, token: tokens.access_token };
}

export interface ProductJson {
  readonly product_id: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly price: number;
  readonly currency: string;
  readonly tags: string[];
  readonly available: boolean;
  readonly option_groups: OptionGroupJson[];
}

export interface OptionGroupJson {
  readonly group_id: string;
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly options: { readonly option_id: string; readonly name: string; readonly price_delta: number; readonly available: boolean }[];
}

/** A dish that can be ordered as `{product_id, quantity}`: available, and no option group it must choose from. */
export function orderableWithoutOptions(p: ProductJson): boolean {
  return p.available && p.option_groups.every((group) => group.min === 0);
}

export async function getMenu(base: string): Promise<ProductJson[]> {
  const res = await call(base, '/api/products');
  expect(res.status, res.text).to.equal(200);
  return (res.body as { products: ProductJson[] }).products;
}

/** The available dishes that need no options (the demo pizzas need a size: see options.spec.ts). */
export async function availableProducts(base: string): Promise<ProductJson[]> {
  const available = (await getMenu(base)).filter(orderableWithoutOptions);
  expect(available.length, 'available dishes on the menu').to.be.greaterThan(2);
  return available;
}

export function placeOrder(base: string, token: string, items: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return call(base, '/api/orders', { json: { items }, token, headers });
}

export async function orderCount(base: string, token: string): Promise<number> {
  const res = await call(base, '/api/orders', { token });
  expect(res.status, res.text).to.equal(200);
  return (res.body as { meta: { total: number } }).meta.total;
}

/** Every order of the caller, following next_page with the largest page size. */
export async function allOrders(base: string, token: string): Promise<{ order_id: string; amount: number }[]> {
  const out: { order_id: string; amount: number }[] = [];
  let page: number | null = 1;
  while (page !== null) {
    const res = await call(base, `/api/orders?page=${page}&limit=100`, { token });
    expect(res.status, res.text).to.equal(200);
    out.push(...(res.body.orders as { order_id: string; amount: number }[]));
    page = res.body.meta.next_page as number | null;
  }
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Code-point comparison, the menu's stable order. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
