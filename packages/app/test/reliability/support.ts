/**
 * Helpers of the reliability suite: a server built from the real container (so that one port can be
 * swapped for a failing one), an HTTP client with a per-request time-out that sends raw bytes, and
 * the shape every error response must have.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Storefront } from '@storefront/domain';
import { createHttpServer } from '@storefront/adapters-http';
import { expect } from 'chai';
import type { Container } from 'inversify';
import { resolve } from '../../src/binding.js';
import { loadConfig, type Env } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { TYPES } from '../../src/identifiers.js';
import { createLogger } from '../../src/logger.js';
import { seedDatabase } from '../../src/seed.js';
import type { RunningStorefront, StartOptions } from '../../src/server.js';
import { runDatabaseFor, startStorefrontForRun } from '../mongo-mode.js';

/** Quiet, fast hashing, and limits no test reaches. */
export const RELIABILITY_ENV: Readonly<Record<string, string>> = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  SCRYPT_LOG_N: '10',
  RATE_LIMIT_MAX: '1000000000',
  LOGIN_RATE_LIMIT_MAX: '1000000000',
  STATUS_RATE_LIMIT_MAX: '1000000000',
};

export const ALICE = { email: 'alice@example.com', password: 'alice-password' } as const;

export interface ComposedServer {
  readonly url: string;
  readonly container: Container;
  readonly storefront: Storefront;
  close(): Promise<void>;
}

/**
 * startStorefront on the store of this run (see ../mongo-mode.ts): memory, or in postgres or mongo
 * mode a database of its own with the demo data, dropped on close. Resolves once it serves.
 */
export function startStorefront(env: Env = {}, options: StartOptions = {}): Promise<RunningStorefront> {
  return startStorefrontForRun(env, options);
}

/**
 * What startStorefront does (configuration → container → seed → HTTP server), with a hook that may
 * rebind services before anything is resolved: a failing repository, a shared store, a spy. On the
 * store of this run, like startStorefront. `options.clock` replaces the domain's clock, as in
 * startStorefront; `options.port` listens on that port (a "restart" at the same address) instead of any.
 */
export async function composeStorefront(
  env: Env = {},
  customize: (container: Container) => void = () => undefined,
  options: Pick<StartOptions, 'clock'> & { readonly port?: number } = {},
): Promise<ComposedServer> {
  const database = await runDatabaseFor({ ...RELIABILITY_ENV, ...env });
  const config = loadConfig(database === null ? { ...RELIABILITY_ENV, ...env } : database.apply({ ...RELIABILITY_ENV, ...env }));
  const logger = createLogger(config);
  const container = createContainer(config, logger, options.clock === undefined ? {} : { clock: options.clock });
  let server: http.Server | undefined;
  const close = async (): Promise<void> => {
    if (server !== undefined) {
      const closed = new Promise<void>((done) => server!.close(() => done()));
      server.closeAllConnections();
      await closed;
    }
    await container.unbindAllAsync();
    await database?.release();
  };
  try {
    customize(container);
    const storefront = resolve(container, TYPES.Storefront);
    await resolve(container, TYPES.CryptoAdapters).tokens.ready();
    await resolve(container, TYPES.DatabaseReady)();
    await seedDatabase(storefront, config, logger);
    resolve(container, TYPES.StartGate).open();
    await storefront.login.warmUp();
    server = createHttpServer(resolve(container, TYPES.HttpApp));
    await new Promise<void>((done) => server!.listen(options.port ?? 0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, container, storefront, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface RawRequest {
  readonly method?: string;
  /** Path and query string, sent as given. */
  readonly path: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  /** The request fails with "no answer within …" after this. Default 5 s. */
  readonly timeoutMs?: number;
  readonly agent?: http.Agent | false;
  /** The loopback address to send from (127.0.0.0/8): another client address to the server. */
  readonly localAddress?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  readonly ms: number;
}

/** One request through node:http: any bytes as the body, any header value Node lets through. */
export function send(base: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  const method = request.method ?? 'GET';
  const timeoutMs = request.timeoutMs ?? 5_000;
  const started = performance.now();
  const headers: http.OutgoingHttpHeaders = { ...request.headers };
  // Node's client frames a GET/DELETE/OPTIONS body with neither Content-Length nor chunking.
  if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
  return new Promise<RawResponse>((done, fail) => {
    const req = http.request({
      host: url.hostname,
      port: Number(url.port),
      method,
      path: request.path,
      headers,
      agent: request.agent ?? false,
      ...(request.localAddress === undefined ? {} : { localAddress: request.localAddress }),
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms to ${method} ${request.path.slice(0, 120)}`));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => {
        clearTimeout(timer);
        fail(error);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        done({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8'), ms: performance.now() - started });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    req.end(request.body);
  });
}

export interface JsonCall {
  readonly method?: string;
  readonly token?: string;
  readonly json?: unknown;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly agent?: http.Agent | false;
  readonly timeoutMs?: number;
  readonly localAddress?: string;
}

/** A JSON request; `body` of the answer is the parsed JSON (or undefined). */
export async function call(base: string, path: string, options: JsonCall = {}): Promise<RawResponse & { json: any }> {
  const headers: http.OutgoingHttpHeaders = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await send(base, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    path,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
  });
  let json: unknown;
  try {
    json = res.text === '' ? undefined : JSON.parse(res.text);
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

export interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
}

export async function login(base: string, email: string, password: string): Promise<Tokens> {
  const res = await call(base, '/api/auth/login', { json: { email, password } });
  expect(res.status, `login of ${email}: ${res.text}`).to.equal(200);
  return res.json as Tokens;
}

/** The available dishes that can be ordered without options (no option group with a `min` above 0). */
export async function availableProductIds(base: string): Promise<string[]> {
  const res = await call(base, '/api/products');
  expect(res.status).to.equal(200);
  type Listed = { product_id: string; available: boolean; option_groups: { min: number }[] };
  const ids = (res.json as { products: Listed[] }).products
    .filter((p) => p.available && p.option_groups.every((group) => group.min === 0))
    .map((p) => p.product_id);
  expect(ids.length, 'available dishes').to.be.greaterThan(2);
  return ids;
}

export async function orderTotal(base: string, token: string): Promise<number> {
  const res = await call(base, '/api/orders?limit=1', { token });
  expect(res.status, res.text).to.equal(200);
  return (res.json as { meta: { total: number } }).meta.total;
}

let customers = 0;

/** A brand-new active customer, logged in. */
export async function newCustomer(server: { url: string; storefront: Storefront }, label: string): Promise<{ email: string; password: string; tokens: Tokens }> {
  customers += 1;
  const email = `${label}-${process.pid}-${customers}@example.com`;
  const password = `${label}-password-${customers}`;
  await server.storefront.registerCustomer.execute({ email, name: `${label} ${customers}`, password });
  return { email, password, tokens: await login(server.url, email, password) };
}

// ---------------------------------------------------------------------------------------------
// Assertions

const ERROR_CODES = new Set([
  'invalid_json',
  'validation_failed',
  'unsupported_media_type',
  'payload_too_large',
  'unauthorized',
  'invalid_token',
  'token_expired',
  'invalid_credentials',
  'email_taken',
  'invalid_reset_token',
  'forbidden',
  'account_disabled',
  'not_found',
  'method_not_allowed',
  'unknown_product',
  'product_unavailable',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  // Fulfilment: a pickup or delivery the store does not offer.
  'store_closed',
  'slot_unavailable',
  'delivery_unavailable',
  'outside_delivery_area',
  'below_minimum_order',
  'rate_limited',
  'internal_error',
  'service_unavailable',
]);

/**
 * Why `res` is not a well-formed JSON error (`{error, message?, details?, retry_after?}` declared
 * as application/json), or null when it is. A HEAD answer has the headers but no body.
 */
export function errorShapeProblem(res: RawResponse, method = 'GET'): string | null {
  const type = String(res.headers['content-type'] ?? '').toLowerCase().replace(/\s+/g, '');
  if (type !== 'application/json;charset=utf-8') return `Content-Type is ${JSON.stringify(res.headers['content-type'])}`;
  if (method === 'HEAD') return res.body.length === 0 ? null : 'HEAD answered with a body';
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `the body is not JSON: ${JSON.stringify(res.text.slice(0, 200))}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `the body is not an object: ${res.text.slice(0, 200)}`;
  const fields = body as Record<string, unknown>;
  if (typeof fields['error'] !== 'string' || !ERROR_CODES.has(fields['error'])) return `unknown error code ${JSON.stringify(fields['error'])}`;
  for (const key of Object.keys(fields)) {
    if (!['error', 'message', 'details', 'retry_after'].includes(key)) return `unexpected key ${key}`;
  }
  if (fields['message'] !== undefined && typeof fields['message'] !== 'string') return 'message is not a string';
  if (/\bat\s+\S+\s+\(|node_modules|\.js:\d+/.test(res.text)) return `the body leaks internals: ${res.text.slice(0, 200)}`;
  return null;
}

export function expectJsonError(res: RawResponse, status: number, code: string): void {
  expect(res.status, `status of ${res.text.slice(0, 200)}`).to.equal(status);
  expect(errorShapeProblem(res)).to.equal(null);
  expect((JSON.parse(res.text) as { error: string }).error).to.equal(code);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
