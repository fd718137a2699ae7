/**
 * Logs a person can use, checked on a real server with a real pino logger writing to a stream:
 * every 5xx is logged once, with its cause and the request id the client saw; start-up is one
 * line saying mode, port, store and limiter; LOG_LEVEL filters; LOG_PRETTY prints for humans.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError } from '@storefront/domain';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startStorefront, type RunningStorefront } from '../src/server.js';
import { recordingLogger, TEST_ENV, WARN, type LogLine } from './helpers.js';

const ERROR = 50;
const DEBUG = 20;
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

interface PlaceOrderSeam {
  execute: (...args: unknown[]) => Promise<unknown>;
}

describe('logging: server failures', () => {
  const recorder = recordingLogger();
  let running: RunningStorefront;
  let token = '';
  let productId = '';

  before(async () => {
    running = await startStorefront({ ...TEST_ENV, LOG_LEVEL: 'info' }, { logger: recorder.logger });
    token = (await running.storefront.login.execute({ email: 'alice@example.com', password: 'alice-password', client: 'test' })).accessToken;
    productId = (await running.storefront.listMenu.execute()).products.find((p) => p.available)!.productId;
  });

  after(async () => {
    await running.close();
  });

  /** Places an order while `placeOrder` fails with `failure`; the response and the lines it logged. */
  async function failingOrder(failure: unknown, requestId: string): Promise<{ status: number; body: unknown; lines: LogLine[] }> {
    const seam = running.storefront.placeOrder as unknown as PlaceOrderSeam;
    const original = seam.execute;
    seam.execute = () => Promise.reject(failure);
    const from = recorder.lines.length;
    try {
      const res = await fetch(`${running.url}/api/orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Request-Id': requestId },
        body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }] }),
      });
      return { status: res.status, body: await res.json(), lines: recorder.lines.slice(from) };
    } finally {
      seam.execute = original;
    }
  }

  it('logs an unexpected error once, at error level, with its cause chain and the request id', async () => {
    const failure = new Error('order insert failed', { cause: new Error('ECONNRESET from db-2:27017') });
    const { status, body, lines } = await failingOrder(failure, 'log-test-500');
    expect(status).to.equal(500);
    // Placed without an Idempotency-Key: a retry is not promised to be safe (see e2e/retry-advice.spec.ts).
    expect(body).to.include({ error: 'internal_error' });
    const errors = lines.filter((line) => line.level >= ERROR);
    expect(errors, JSON.stringify(lines)).to.have.length(1);
    const [logged] = errors as [LogLine];
    expect(logged).to.include({ req_id: 'log-test-500', method: 'POST', path: '/api/orders' });
    const err = logged['err'] as { message: string; stack: string; type: string };
    expect(err.type).to.equal('Error');
    expect(err.message).to.include('order insert failed').and.include('ECONNRESET from db-2:27017');
    expect(err.stack).to.include('caused by: Error: ECONNRESET');
    // The access line of the same request carries the same id and the status.
    expect(lines.find((line) => line.msg === 'request')).to.include({ req_id: 'log-test-500', status: 500 });
  });

  it('logs a database outage (a domain error that maps to 500) once with the driver error as its cause', async () => {
    const failure = new DomainError('database_unavailable', 'The database is unreachable.', { cause: new Error('MongoNetworkError: connect ECONNREFUSED') });
    const { status, lines } = await failingOrder(failure, 'log-test-store');
    expect(status).to.equal(500);
    const errors = lines.filter((line) => line.level >= ERROR);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ req_id: 'log-test-store' });
    expect(JSON.stringify(errors[0]!['err'])).to.include('ECONNREFUSED').and.include('database_unavailable');
  });

  it('logs a non-Error thrown value too', async () => {
    const { status, lines } = await failingOrder({ weird: 'object' }, 'log-test-odd');
    expect(status).to.equal(500);
    const errors = lines.filter((line) => line.level >= ERROR);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.deep.include({ req_id: 'log-test-odd', err: { weird: 'object' } });
  });

  it('logs no error for a client error (4xx), only its access line', async () => {
    const from = recorder.lines.length;
    const res = await fetch(`${running.url}/api/nowhere`, { headers: { 'X-Request-Id': 'log-test-404' } });
    expect(res.status).to.equal(404);
    const lines = recorder.lines.slice(from);
    expect(lines.filter((line) => line.level >= ERROR)).to.deep.equal([]);
    expect(lines.find((line) => line.msg === 'request')).to.include({ req_id: 'log-test-404', status: 404 });
  });
});

describe('logging: a client that leaves', () => {
  it('logs a reset connection on an event stream at debug, with its code and no stack, and no error', async () => {
    const { logger, lines } = recordingLogger('debug');
    const running = await startStorefront({ ...TEST_ENV, LOG_LEVEL: 'debug' }, { logger });
    try {
      const pair = await running.storefront.login.execute({ email: 'kitchen@example.com', password: 'kitchen-password', client: 'test' });
      const socket = net.connect(running.port, '127.0.0.1');
      socket.write(`GET /api/staff/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${pair.accessToken}\r\n\r\n`);
      await once(socket, 'data');
      const from = lines.length;
      socket.resetAndDestroy();
      // The stream's end is logged (its access line) once the server has seen the reset.
      for (let i = 0; i < 100 && !lines.slice(from).some((line) => line.msg === 'request'); i++) await delay(20);
      const after = lines.slice(from);
      expect(after.filter((line) => line.level >= WARN), JSON.stringify(after)).to.deep.equal([]);
      const reset = after.find((line) => line.msg === 'client connection reset');
      expect(reset, JSON.stringify(after)).to.deep.include({ level: DEBUG, code: 'ECONNRESET' });
      expect(JSON.stringify(after)).not.to.include('stack');
    } finally {
      await running.close();
    }
  });
});

describe('logging: start-up and settings', () => {
  it('says at start-up, in one line, the mode, port, database and limiter', async () => {
    const { logger, lines } = recordingLogger();
    const running = await startStorefront({ ...TEST_ENV, LOG_LEVEL: 'info' }, { logger });
    await running.close();
    const started = lines.filter((line) => line.msg === 'storefront started');
    expect(started).to.have.length(1);
    expect(started[0]).to.include({ mode: 'demo', port: running.port, url: running.url, database: 'memory', limiter: 'memory' });
  });

  it('honours LOG_LEVEL', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const logger = createLogger(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'warn' }), sink);
    logger.info({}, 'hidden');
    logger.warn({}, 'shown');
    expect(logger.level).to.equal('warn');
    expect(lines.join('')).to.include('shown').and.not.include('hidden');
  });

  it('prints human-readable lines with LOG_PRETTY=true (pino-pretty, a development dependency)', async function () {
    this.timeout(20_000);
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...TEST_ENV, LOG_LEVEL: 'info', LOG_PRETTY: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 15_000;
      while (!/storefront started/.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      expect(out, out).to.match(/INFO.*storefront started/);
      expect(out).to.match(/mode: "demo"/).and.match(/database: "memory"/);
      expect(out.split('\n')[0], 'not JSON').not.to.match(/^\{/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
