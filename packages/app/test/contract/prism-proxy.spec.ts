/**
 * A real `prism proxy packages/adapters-http/openapi.yaml <service> --errors` (Stoplight Prism's CLI, as a checker
 * runs it) in front of a real server: a representative session goes through it, and Prism finds
 * nothing to say about any request or response (no `sl-violations` header, no `Violation` in its
 * log, and with `--errors` it would have answered a response violation with its own 500).
 *
 * The in-process check of every e2e exchange (prism.ts) uses Prism's validators without its HTTP
 * server; this test covers what only the CLI does: reading the document from disk, parsing the
 * proxied request and response, and forwarding.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { baseOf, orderableWithoutOptions, startServer, type ProductJson, type RunningServer } from '../e2e/support.js';
import { OPENAPI_PATH } from './document-path.js';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

interface RunningPrism {
  readonly url: string;
  /** Everything Prism wrote so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `prism proxy` on an ephemeral port in front of `upstream`; resolves once it listens. */
function startPrismProxy(upstream: string): Promise<RunningPrism> {
  const cliPackage = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
  const cli = join(dirname(cliPackage), 'dist', 'index.js');
  const child: ChildProcess = spawn(process.execPath, [cli, 'proxy', OPENAPI_PATH, upstream, '--errors', '--host', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`prism proxy did not listen within ${START_TIMEOUT_MS} ms:\n${output.slice(-2000)}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(output);
      if (listening !== null) {
        clearTimeout(timer);
        resolve({ url: listening[1]!.replace(/\/+$/, ''), log: () => output, stop });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`prism proxy exited (code ${String(child.exitCode)}):\n${output.slice(-2000)}`));
    });
  });
}

interface Through {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

describe('a real `prism proxy --errors` in front of the service', function () {
  this.timeout(60_000);
  let server: RunningServer | undefined;
  let prism: RunningPrism | undefined;
  /** Every request sent, with what Prism said of it. */
  const seen: { readonly label: string; readonly status: number; readonly violations: string | null }[] = [];

  before(async function () {
    this.timeout(START_TIMEOUT_MS + 15_000);
    server = await startServer({ LOGIN_RATE_LIMIT_MAX: '8' });
    prism = await startPrismProxy(baseOf(server));
  });

  after(async function () {
    this.timeout(STOP_TIMEOUT_MS + 15_000);
    await prism?.stop();
    await server?.close();
  });

  /** One request through the proxy; the status must be `status` (the service's, not Prism's own). */
  async function send(label: string, status: number, path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Through> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token !== undefined) headers['Authorization'] = `Bearer ${init.token}`;
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(prism!.url + path, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers,
      body: init.json === undefined ? null : JSON.stringify(init.json),
      redirect: 'manual',
    });
    const text = await res.text();
    seen.push({ label: `${label}: ${res.status}`, status: res.status, violations: res.headers.get('sl-violations') });
    expect(res.status, `${label} through Prism: ${text.slice(0, 500)}`).to.equal(status);
    expect(res.headers.get('sl-violations'), `${label}: Prism's violations`).to.equal(null);
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  async function login(email: string, password: string): Promise<string> {
    const res = await send(`login ${email}`, 200, '/api/auth/login', { json: { email, password } });
    return res.body.access_token as string;
  }

  it('lets the menu, search, the store, status and the quota through without a word', async () => {
    const menu = await send('the menu', 200, '/api/products');
    await send('the menu, unchanged', 304, '/api/products', { headers: { 'If-None-Match': menu.headers.get('etag')! } });
    await send('search', 200, '/api/search?q=piz&limit=2');
    await send('a blank search (400 validation_failed)', 400, '/api/search?q=%20%20');
    await send('the store', 200, '/api/store');
    await send('status', 200, '/api/status');
    await send('the quota', 200, '/api/rate-limit');
    await send('the menu with a bad token (401 invalid_token)', 401, '/api/products', { token: 'v4.public.not-a-token' });
  });

  it("lets a customer's session through: login, me, an order placed, replayed, listed, read, cancelled; refresh, logout", async () => {
    const alice = await login('alice@example.com', 'alice-password');
    await send('me', 200, '/api/me', { token: alice });
    const products = (await send('the menu', 200, '/api/products')).body.products as ProductJson[];
    const dish = products.find(orderableWithoutOptions)!;
    const order = { items: [{ product_id: dish.product_id, quantity: 2 }] };
    const key = `prism-${Date.now()}`;
    const placed = await send('an order', 201, '/api/orders', { token: alice, json: order, headers: { 'Idempotency-Key': key } });
    await send('the order again, same key (replayed)', 201, '/api/orders', { token: alice, json: order, headers: { 'Idempotency-Key': key } });
    await send('an order of an unknown dish (422)', 422, '/api/orders', { token: alice, json: { items: [{ product_id: 'prd_0000000000000000000x', quantity: 1 }] } });
    await send('her orders', 200, '/api/orders?page=1&limit=1', { token: alice });
    const id = placed.body.order_id as string;
    const detail = await send('the order', 200, `/api/orders/${id}`, { token: alice });
    await send('the order, unchanged', 304, `/api/orders/${id}`, { token: alice, headers: { 'If-None-Match': detail.headers.get('etag')! } });
    await send('an unknown order (404)', 404, '/api/orders/ord_00000000000000000000000000', { token: alice });
    await send('the kitchen queue with a customer token (403 forbidden)', 403, '/api/staff/orders', { token: alice });
    await send('cancel', 200, `/api/orders/${id}/cancel`, { token: alice, method: 'POST' });
    const pair = await send('login for a refresh', 200, '/api/auth/login', { json: { email: 'bob@example.com', password: 'bob-password' } });
    const renewed = await send('refresh', 200, '/api/auth/refresh', { json: { refresh_token: pair.body.refresh_token } });
    await send('logout', 204, '/api/auth/logout', { token: renewed.body.access_token, method: 'POST' });
    await send('me after logout (401)', 401, '/api/me', { token: renewed.body.access_token });
  });

  it("lets the kitchen's moves through: the queue, a move, a lost If-Match race, an invalid move, 86 a dish", async () => {
    const alice = await login('alice@example.com', 'alice-password');
    const kitchen = await login('kitchen@example.com', 'kitchen-password');
    const products = (await send('the menu', 200, '/api/products')).body.products as ProductJson[];
    const dish = products.find(orderableWithoutOptions)!;
    const id = (await send('an order', 201, '/api/orders', { token: alice, json: { items: [{ product_id: dish.product_id, quantity: 1 }] } })).body.order_id as string;
    await send('the queue', 200, '/api/staff/orders?status=placed,accepted', { token: kitchen });
    await send('accept', 200, `/api/staff/orders/${id}/status`, { token: kitchen, json: { status: 'accepted' }, headers: { 'If-Match': '"1"' } });
    await send('prepare at a stale version (412)', 412, `/api/staff/orders/${id}/status`, { token: kitchen, json: { status: 'preparing' }, headers: { 'If-Match': '"1"' } });
    await send('complete from accepted (409)', 409, `/api/staff/orders/${id}/status`, { token: kitchen, json: { status: 'completed' } });
    await send('the owner cancels an accepted order (409)', 409, `/api/orders/${id}/cancel`, { token: alice, method: 'POST' });
    await send('86 a dish', 200, `/api/staff/products/${dish.product_id}`, { token: kitchen, method: 'PATCH', json: { available: false } });
    await send('and back', 200, `/api/staff/products/${dish.product_id}`, { token: kitchen, method: 'PATCH', json: { available: true } });
    await send('an unknown dish (404)', 404, '/api/staff/products/prd_0000000000000000000x', { token: kitchen, method: 'PATCH', json: { available: true } });
    await send('pause ordering', 200, '/api/staff/store', { token: kitchen, method: 'PATCH', json: { accepting_orders: false } });
    await send('and resume', 200, '/api/staff/store', { token: kitchen, method: 'PATCH', json: { accepting_orders: true } });
  });

  it('lets the account routes through: sign-up and a taken email, a reset request and a spent token, erasure', async () => {
    const email = `prism-${Date.now()}@example.com`;
    const account = { email, password: 'a long enough passphrase', name: 'Prism Proxy' };
    const signedUp = await send('sign-up', 201, '/api/auth/register', { json: account });
    await send('sign-up with a taken email (409 email_taken)', 409, '/api/auth/register', { json: { ...account, email: email.toUpperCase() } });
    await send('a reset request', 202, '/api/auth/password-reset', { json: { email } });
    await send('a reset with an unknown token (400 invalid_reset_token)', 400, '/api/auth/password-reset/confirm', { json: { token: 'not-a-reset-token', password: 'another long passphrase' } });
    const token = signedUp.body.access_token as string;
    await send('erasure with a wrong password (401 invalid_credentials)', 401, '/api/me/delete', { token, json: { password: 'not the password' } });
    await send('erasure', 204, '/api/me/delete', { token, json: { password: account.password } });
  });

  it('lets failed logins through: a disabled account 403, wrong passwords 401, then 429', async () => {
    await send('a disabled account (403)', 403, '/api/auth/login', { json: { email: 'carol@example.com', password: 'carol-password' } });
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 429; attempt++) {
      const res = await fetch(`${prism!.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }) });
      await res.text();
      status = res.status;
      seen.push({ label: `a wrong password: ${status}`, status, violations: res.headers.get('sl-violations') });
      expect([401, 429], 'a wrong password').to.include(status);
    }
    expect(status, 'the login limit answers at last').to.equal(429);
  });

  it('leaves no violation anywhere: no sl-violations header, nothing in its log', () => {
    expect(seen.filter((s) => s.violations !== null)).to.deep.equal([]);
    expect(seen.length).to.be.greaterThan(30);
    expect(prism!.log()).not.to.match(/Violation/);
    expect(prism!.log()).not.to.match(/Request terminated with error/);
  });
});
