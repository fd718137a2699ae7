/**
 * examples/typed-client (openapi-fetch, typed by openapi-typescript from packages/adapters-http/openapi.yaml) run as
 * built against a real server: the build proves the example still fits the contract's types, this
 * proves that what it types is what the service answers.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { ALICE, allOrders, availableProducts, call, login, placeOrder, useServer, type ProductJson } from './e2e/support.js';

const EXAMPLE = fileURLToPath(new URL('../../../../examples/typed-client/dist/main.js', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built example to its end, killed after `timeoutMs`. */
function runExample(args: readonly string[], timeoutMs = 15_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXAMPLE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the example ran over ${timeoutMs} ms; output:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => (clearTimeout(timer), reject(error)));
    child.once('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

describe('examples/typed-client', function () {
  this.timeout(30_000);
  const handle = useServer();
  let token: string;

  before(async () => {
    expect(existsSync(EXAMPLE), `${EXAMPLE} is built by pnpm build`).to.equal(true);
    token = (await login(handle.url, ALICE.email, ALICE.password)).access_token;
  });

  it('logs in, places an order of a dish without options and pages through the orders to find it', async () => {
    // Two orders already there, pages of 2: the new one is on the second page.
    const [first] = await availableProducts(handle.url);
    for (let i = 0; i < 2; i += 1) {
      const placed = await placeOrder(handle.url, token, [{ product_id: first!.product_id, quantity: 1 }]);
      expect(placed.status, placed.text).to.equal(201);
    }
    const already = (await allOrders(handle.url, token)).length;

    const run = await runExample(['--url', handle.url, '--limit', '2']);

    expect(run.code, `exit code; stderr:\n${run.stderr}\noutput:\n${run.stdout}`).to.equal(0);
    expect(run.stderr).to.equal('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).to.equal('logged in as alice@example.com (token valid 900 s)');
    expect(lines[1]).to.match(/^menu: \d+ products; ordering .+ \(\d+\.\d{2} [A-Z]{3}\)$/);
    const orderId = /^placed (ord_[0-9a-z]+): placed, \d+\.\d{2} [A-Z]{3}$/.exec(lines[2] ?? '')?.[1];
    expect(orderId, lines[2]).to.be.a('string');
    const total = already + 1;
    const pages = lines.slice(3, -1);
    expect(pages).to.deep.equal(
      Array.from({ length: Math.ceil(total / 2) }, (_, i) => `page ${i + 1}: ${Math.min(2, total - 2 * i)} orders`),
    );
    expect(lines.at(-1)).to.equal(`${total} orders in all; ${orderId} is among them`);

    // The order is in the service, as the example said: two of a dish whose option groups are all optional.
    const orders = await allOrders(handle.url, token);
    expect(orders.map((o) => o.order_id)).to.include(orderId);
    const detail = await call(handle.url, `/api/orders/${orderId}`, { token });
    expect(detail.status, detail.text).to.equal(200);
    const [line] = detail.body.items as { product_id: string; quantity: number; options: unknown[] }[];
    expect(line!.quantity).to.equal(2);
    expect(line!.options).to.deep.equal([]);
    const menu = (await call(handle.url, '/api/products')).body.products as ProductJson[];
    const dish = menu.find((p) => p.product_id === line!.product_id);
    expect(dish?.option_groups.every((group) => group.min === 0)).to.equal(true);
  });

  it('exits 1 with the typed error body when the API refuses a call', async () => {
    const wrongPassword = await runExample(['--url', handle.url, '--password', 'not-alice-password']);
    expect(wrongPassword.code, wrongPassword.stdout).to.equal(1);
    expect(wrongPassword.stdout).to.equal('');
    expect(wrongPassword.stderr.trim()).to.equal('typed-client: login: 401 invalid_credentials {"error":"invalid_credentials"}');

    const badLimit = await runExample(['--url', handle.url, '--limit', '0']);
    expect(badLimit.code, badLimit.stdout).to.equal(1);
    expect(badLimit.stderr).to.match(/^typed-client: orders page 1: 400 validation_failed \{"error":"validation_failed","message":".+","details":\[\{"path":"limit",/);
  });
});
