import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '@storefront/domain';
import { ConfigError } from '../src/config.js';
import { startStorefront, type RunningStorefront } from '../src/server.js';
import { recordingLogger, TEST_ENV, WARN } from './helpers.js';

const ALICE = { email: 'alice@example.com', password: 'alice-password', client: '127.0.0.1' } as const;

function tempMenu(document: unknown): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-app-'));
  const path = join(dir, 'menu.json');
  writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const dish = (name: string, price: number) => ({ name, description: `${name}, freshly made.`, category: 'Specials', price, currency: 'USD', tags: [], available: true });

async function withServer(env: Record<string, string>, test: (running: RunningStorefront) => Promise<void>): Promise<void> {
  const running = await startStorefront({ ...TEST_ENV, ...env });
  try {
    await test(running);
  } finally {
    await running.close();
  }
}

/** Sends the head and part of the body of a request, leaving it in flight. */
function startRequest(port: number, path: string, body: string, sentBytes: number): { socket: net.Socket; response: Promise<string> } {
  const socket = net.connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  const response = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sentBytes)}`,
  );
  return { socket, response };
}

describe('startStorefront', () => {
  it('listens on an ephemeral port and answers GET /api/status', async () => {
    await withServer({}, async (running) => {
      expect(running.port).to.be.greaterThan(0);
      expect(running.url).to.equal(`http://127.0.0.1:${running.port}`);
      const res = await fetch(`${running.url}/api/status`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } });
    });
  });

  it('serves the demo accounts as soon as /api/status answers 200: kitchen and owner log in at once', async () => {
    await withServer({ STOREFRONT_DEMO_DATA: 'true' }, async (running) => {
      // In memory the store is prepared before the port opens: the first status answer is 200.
      expect((await fetch(`${running.url}/api/status`)).status).to.equal(200);
      for (const [email, password] of [['kitchen@example.com', 'kitchen-password'], ['owner@example.com', 'owner-password']] as const) {
        const res = await fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
        expect(res.status, email).to.equal(200);
      }
    });
  });

  it('seeds the demo menu and customers, and says so in one warning line', async () => {
    const { logger, lines } = recordingLogger();
    const running = await startStorefront({ ...TEST_ENV, TOKEN_SECRET_KEY: '' }, { logger });
    try {
      const menu = await running.storefront.listMenu.execute();
      expect(menu.products.length).to.be.greaterThan(20);
      expect(menu.products.some((product) => !product.available)).to.equal(true);
      expect((await running.storefront.login.execute(ALICE)).tokenType).to.equal('Bearer');
      const carol = await running.storefront.login
        .execute({ ...ALICE, email: 'carol@example.com', password: 'carol-password' })
        .then(() => null, (e: unknown) => e);
      expect(isDomainError(carol, 'account_disabled')).to.equal(true);
    } finally {
      await running.close();
    }
    expect(lines.filter((line) => line.msg.startsWith('demo data active'))).to.have.length(1);
    expect(lines.find((line) => line.msg.startsWith('demo data active'))).to.include({
      level: WARN,
      msg: 'demo data active: alice@example.com, bob@example.com, carol@example.com (disabled), kitchen@example.com (staff), owner@example.com (admin)',
    });
    expect(lines.find((line) => line.msg === 'storefront started')).to.include({ mode: 'demo', database: 'memory', limiter: 'memory' });
  });

  it('loads STOREFRONT_MENU_FILE instead of the demo menu, and still seeds the customers', async () => {
    const menu = tempMenu({ products: [dish('House burger', 1500), dish('Garden salad', 900)] });
    try {
      await withServer({ STOREFRONT_MENU_FILE: menu.path }, async (running) => {
        const names = (await running.storefront.listMenu.execute()).products.map((product) => product.name);
        expect(names).to.deep.equal(['Garden salad', 'House burger']);
        expect((await running.storefront.login.execute(ALICE)).tokenType).to.equal('Bearer');
      });
    } finally {
      menu.cleanup();
    }
  });

  it('starts empty with STOREFRONT_DEMO_DATA=false', async () => {
    await withServer({ STOREFRONT_DEMO_DATA: 'false' }, async (running) => {
      expect((await running.storefront.listMenu.execute()).products).to.deep.equal([]);
      const error = await running.storefront.login.execute(ALICE).then(() => null, (e: unknown) => e);
      expect(isDomainError(error, 'invalid_credentials')).to.equal(true);
    });
  });

  it('stops with a ConfigError naming STOREFRONT_MENU_FILE for a missing, broken or invalid menu file', async () => {
    const broken = tempMenu('{"products": [');
    const invalid = tempMenu({ products: [{ ...dish('Free lunch', -1) }] });
    try {
      for (const path of [join(tmpdir(), 'no-such-storefront-menu.json'), broken.path, invalid.path]) {
        const error = await startStorefront({ ...TEST_ENV, STOREFRONT_MENU_FILE: path }).then(
          async (running) => {
            await running.close();
            return null;
          },
          (e: unknown) => e,
        );
        expect(error, path).to.be.instanceOf(ConfigError);
        expect((error as ConfigError).message).to.match(/^STOREFRONT_MENU_FILE: /);
      }
    } finally {
      broken.cleanup();
      invalid.cleanup();
    }
  });

  it('stops with a ConfigError for a bad variable, before listening', async () => {
    const error = await startStorefront({ ...TEST_ENV, RATE_LIMIT_MAX: 'abc' }).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError).with.property('message', 'RATE_LIMIT_MAX must be a positive integer, got "abc"');
  });

  it('stops with a ConfigError naming PORT when the port is taken', async () => {
    await withServer({}, async (running) => {
      const error = await startStorefront({ ...TEST_ENV, PORT: String(running.port) }).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigError).with.nested.property('issues[0].variable', 'PORT');
    });
  });

  it('close() resolves, and the port no longer accepts connections', async () => {
    const running = await startStorefront({ ...TEST_ENV });
    await fetch(`${running.url}/api/status`); // leaves an idle keep-alive connection behind
    await running.close();
    await running.close(); // idempotent
    const refused = await fetch(`${running.url}/api/status`).then(() => false, () => true);
    expect(refused).to.equal(true);
  });

  it('close() lets a request in flight finish before resolving', async () => {
    const running = await startStorefront({ ...TEST_ENV });
    const body = JSON.stringify({ email: 'alice@example.com', password: 'alice-password' });
    const { socket, response } = startRequest(running.port, '/api/auth/login', body, 10);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server has the request head
    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed, 'closed while a request was in flight').to.equal(false);
    socket.write(body.slice(10));
    const raw = await response;
    await closing;
    expect(raw).to.match(/^HTTP\/1\.1 200 /);
    expect(raw).to.include('access_token');
  });

  it('close() cuts a request still unfinished after SHUTDOWN_TIMEOUT_SECONDS', async function () {
    this.timeout(10_000);
    const running = await startStorefront({ ...TEST_ENV, SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const { response } = startRequest(running.port, '/api/auth/login', '{"email":"a@b.c","password":"x"}', 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).to.be.within(900, 5_000);
    expect(await response).to.equal('');
  });
});
