/**
 * Slow and abusive clients: a client trickling its headers or its body is cut by the server's
 * header and request time-outs (shortened here through startStorefront's options; 10 s by
 * default), a 1 GB Content-Length is refused with 413 before a byte of it is read, and SIGTERM
 * under load lets every request in flight finish before the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import type { RunningStorefront } from '../../src/server.js';
import { ALICE, availableProductIds, call, login, RELIABILITY_ENV, sleep, startStorefront, type RawResponse } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

interface Trickle {
  /** Everything the server sent. */
  readonly received: string;
  /** Milliseconds from connecting to the server closing the connection. */
  readonly closedAfterMs: number;
  /** Bytes written before the server closed the connection. */
  readonly bytesSent: number;
}

/** Sends `head` at once, then `trickle` one byte every `everyMs`, until the server closes the connection. */
function trickle(port: number, head: string, trickleBytes: string, everyMs: number, giveUpMs: number): Promise<Trickle> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const started = performance.now();
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('connect', () => {
      socket.write(head);
      sent += Buffer.byteLength(head);
      timer = setInterval(() => {
        if (sent - Buffer.byteLength(head) >= trickleBytes.length || socket.destroyed) return;
        socket.write(trickleBytes[sent - Buffer.byteLength(head)]!);
        sent += 1;
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ received, closedAfterMs: performance.now() - started, bytesSent: sent });
    });
  });
}

describe('Slow clients', function () {
  this.timeout(30_000);
  const HEADERS_TIMEOUT_MS = 2_000;
  const REQUEST_TIMEOUT_MS = 3_000;
  const CHECK_EVERY_MS = 200;
  let server: RunningStorefront;

  before(async () => {
    server = await startStorefront(
      { ...RELIABILITY_ENV },
      { timeouts: { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CHECK_EVERY_MS } },
    );
  });
  after(() => server?.close());

  it('keeps 10 s header and request time-outs by default, checked every second', async () => {
    const defaults = await startStorefront({ ...RELIABILITY_ENV });
    try {
      expect(defaults.timeouts).to.deep.equal({ headersTimeout: 10_000, requestTimeout: 10_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 });
    } finally {
      await defaults.close();
    }
  });

  it('cuts a client sending its headers one byte per second after the header time-out with a 408, and serves others meanwhile', async () => {
    const slow = trickle(server.port, 'GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n', `X-Slow: ${'a'.repeat(60)}\r\n\r\n`, 1_000, 15_000);
    await sleep(500);
    const other = await call(server.url, '/api/products');
    expect(other.status, 'another client is served while one trickles').to.equal(200);
    expect(other.ms).to.be.below(1_000);
    const cut = await slow;
    expect(cut.received).to.match(/^HTTP\/1\.1 408 /);
    expect(cut.received).to.match(/\r\n\r\n\{"error":"request_timeout","message":"[^"]+"\}$/);
    expect(cut.closedAfterMs).to.be.within(HEADERS_TIMEOUT_MS - 100, HEADERS_TIMEOUT_MS + CHECK_EVERY_MS + 1_000);
    expect(cut.bytesSent, 'the client was still sending its headers').to.be.below(60);
  });

  it('cuts a client sending its body one byte per second after the request time-out', async () => {
    const body = JSON.stringify({ email: ALICE.email, password: ALICE.password });
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const cut = await trickle(server.port, head, body, 1_000, 15_000);
    expect(cut.received).to.match(/^HTTP\/1\.1 408 /);
    expect(cut.closedAfterMs).to.be.within(REQUEST_TIMEOUT_MS - 100, REQUEST_TIMEOUT_MS + CHECK_EVERY_MS + 1_000);
    expect(cut.bytesSent - head.length, 'body bytes sent').to.be.below(body.length);
  });

  for (const path of ['/api/auth/login', '/api/orders']) {
    it(`refuses a 1 GB Content-Length on POST ${path} with 413 at once, without reading the body, and closes the connection`, async () => {
      const token = (await login(server.url, ALICE.email, ALICE.password)).access_token;
      const head =
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${2 ** 30}\r\n\r\n{"items":[`;
      // Keep sending for as long as the server reads, 64 KiB at a time; it should read nothing.
      const result = await new Promise<{ response: string; ms: number; closed: boolean; sent: number }>((resolve) => {
        const socket = net.connect({ host: '127.0.0.1', port: server.port });
        const started = performance.now();
        let response = '';
        let sent = 0;
        let answeredAt = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = setInterval(() => {
          if (!socket.destroyed && socket.writableLength < 1024 * 1024) {
            socket.write(chunk);
            sent += chunk.length;
          }
        }, 5);
        const finish = (closed: boolean) => {
          clearInterval(pump);
          socket.destroy();
          resolve({ response, ms: answeredAt - started, closed, sent });
        };
        const giveUp = setTimeout(() => finish(false), 5_000);
        socket.on('connect', () => socket.write(head));
        socket.on('data', (data: Buffer) => {
          response += data.toString('latin1');
          if (answeredAt === 0) answeredAt = performance.now();
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(giveUp);
          finish(true);
        });
      });
      const [head413, body] = result.response.split('\r\n\r\n');
      expect(head413).to.match(/^HTTP\/1\.1 413 /);
      expect(head413).to.match(/\r\nConnection: close/i);
      expect(head413).to.match(/\r\nContent-Type: application\/json; charset=utf-8/i);
      expect(JSON.parse(body!).error).to.equal('payload_too_large');
      expect(result.ms, 'ms until the 413').to.be.below(1_000);
      expect(result.closed, 'the server closed the connection instead of reading 1 GB').to.equal(true);
      expect(result.sent, 'bytes the client got to send').to.be.below(64 * 1024 * 1024);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Graceful shutdown of the real process

interface Child {
  readonly url: string;
  readonly process: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function startMain(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...RELIABILITY_ENV, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no start-up line within 20 s:\n${output}`));
    }, 20_000);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.includes('"storefront started"'));
      if (line === undefined) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url: (JSON.parse(line) as { url: string }).url, process: child, exited });
    });
  });
}

describe('Graceful shutdown under load', function () {
  this.timeout(40_000);
  let child: Child | undefined;
  after(() => {
    if (child !== undefined && child.process.exitCode === null) child.process.kill('SIGKILL');
  });

  it('finishes every request in flight at SIGTERM with a status, resets no connection, and exits 0 within 10 s', async () => {
    // scrypt logN 13 with 2 hashes at once: logins queue, so many are in flight at any moment (and
    // may wait as long as the request time-out: this test is about shutdown, not about the bounds).
    child = await startMain({ SCRYPT_LOG_N: '13', SCRYPT_MAX_CONCURRENCY: '2', SCRYPT_MAX_QUEUE: '1000', SCRYPT_MAX_WAIT_MS: '10000', SHUTDOWN_TIMEOUT_SECONDS: '10' });
    const { url } = child;
    const token = (await login(url, ALICE.email, ALICE.password)).access_token;
    const productIds = await availableProductIds(url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

    let stopping = false;
    const inFlight = new Set<Promise<unknown>>();
    const outcomes: string[] = [];
    let atSigterm: Promise<unknown>[] = [];
    // Each kind of request has its one answer: `<kind> <status>` is recorded and compared with it.
    const kinds: [name: string, status: number, send: () => Promise<RawResponse>][] = [
      ['login', 200, () => call(url, '/api/auth/login', { json: ALICE, agent, timeoutMs: 15_000 })],
      ['wrong-password', 401, () => call(url, '/api/auth/login', { json: { email: ALICE.email, password: 'wrong' }, agent, timeoutMs: 15_000 })],
      ['place-order', 201, () => call(url, '/api/orders', { token, json: { items: [{ product_id: productIds[0], quantity: 1 }] }, agent, timeoutMs: 15_000 })],
      ['menu', 200, () => call(url, '/api/products', { agent, timeoutMs: 15_000 })],
      ['list-orders', 200, () => call(url, '/api/orders', { token, agent, timeoutMs: 15_000 })],
    ];
    const expected = new Set(kinds.map(([name, status]) => `${name} ${status}`));
    const clients = Array.from({ length: 40 }, async (_, client) => {
      for (let n = 0; !stopping; n += 1) {
        const [name, , send] = kinds[(client + n) % kinds.length]!;
        const request = send().then(
          (res) => outcomes.push(`${name} ${res.status}`),
          (error: Error) => outcomes.push(`error: ${error.message}`),
        );
        inFlight.add(request);
        await request;
        inFlight.delete(request);
      }
    });

    await sleep(1_500);
    stopping = true; // no new requests from here on, so none races the closing listener
    await sleep(50);
    atSigterm = [...inFlight];
    const before = outcomes.length;
    const signalledAt = performance.now();
    child.process.kill('SIGTERM');
    await Promise.all(clients);
    const exit = await child.exited;
    agent.destroy();

    const finishedAfterSigterm = outcomes.slice(before);
    console.log(`      ${outcomes.length} requests; ${atSigterm.length} in flight at SIGTERM; exit ${exit.code} after ${Math.round(exit.at - signalledAt)} ms`);
    expect(atSigterm.length, 'requests in flight at SIGTERM').to.be.at.least(10);
    expect(finishedAfterSigterm.length).to.equal(atSigterm.length);
    expect(finishedAfterSigterm.filter((outcome) => !expected.has(outcome)), 'requests in flight that did not end with their answer').to.deep.equal([]);
    expect(outcomes.filter((outcome) => !expected.has(outcome)), 'answers other than each kind\'s own during the whole run').to.deep.equal([]);
    expect(outcomes.filter((outcome) => outcome.startsWith('error')), 'errors during the whole run').to.deep.equal([]);
    expect(exit.code, 'exit code').to.equal(0);
    expect(exit.at - signalledAt, 'ms from SIGTERM to exit').to.be.below(10_000);
  });
});
