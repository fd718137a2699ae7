#!/usr/bin/env node
/**
 * The JavaScript cost of one `GET /api/products`, without the kernel or a load generator: the
 * server's request listener is fed HTTP/1.1 requests through 16 in-memory sockets (keep-alive, one
 * request in flight on each), so Node's HTTP parser and response code run as they do in
 * production, and only the socket is fake. CPU µs per request (user + system, all threads of the
 * process) for node:http, bare Koa and the service, each in its own process, alternated.
 *
 *   node bench/inprocess.mjs                 # 3 alternations × 5 rounds of 50,000 requests each
 *   node bench/inprocess.mjs --instructions  # instructions per request under valgrind (~3 min)
 *   node bench/inprocess.mjs <kind> [n] [r]  # one process: node | koa | service | service-silent | service-metrics
 *
 * Why: on a shared two-core VM, wrk's req/s moves by ±5 % from run to run and the kernel's share
 * (loopback writes, waking the client) is the same for every server; this isolates what the code
 * on top of Node costs. CPU time here still moves by ±5 % with the neighbours; instruction counts
 * (`--instructions`: `valgrind --tool=callgrind`, counting only 10,000 requests after a warm-up)
 * move by about ±2 % between identical builds, which is what judging a small change needs. Run
 * from a fresh `tsc -b` (pnpm bench does that).
 */
import { fork } from 'node:child_process';
import { openSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { countInstructions, zeroCounts } from './callgrind.mjs';

const KINDS = ['node', 'koa', 'service', 'service-silent'];
const CONNECTIONS = 16;
const here = fileURLToPath(import.meta.url);
const root = new URL('..', import.meta.url);


/**
 * Each kind under `valgrind --tool=callgrind`, two at a time (one per core): instructions per
 * request over 10,000 requests after a 20,000-request warm-up, counted from the zeroing the child
 * asks for (`callgrind_control -z`) to its exit.
 */
async function instructions() {
  const REQUESTS = 10_000;
  // Every thread's instructions, the collector's and the compiler's included, as this table always counted.
  const count = async (kind) => {
    const { main, others } = await countInstructions(here, [kind, String(REQUESTS), '1'], REQUESTS, { INPROCESS_CALLGRIND: '1' });
    return main + others;
  };
  const results = {};
  for (let i = 0; i < KINDS.length; i += 2) {
    const pair = KINDS.slice(i, i + 2);
    const counts = await Promise.all(pair.map(count));
    pair.forEach((kind, j) => (results[kind] = counts[j]));
  }
  console.log('| server (in-process, no kernel) | instructions per request | × node:http |');
  console.log('|---|---:|---:|');
  for (const kind of KINDS) console.log(`| ${kind} | ${Math.round(results[kind]).toLocaleString('en-US')} | ${(results[kind] / results.node).toFixed(2)} |`);
}

async function compare() {
  const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (let alternation = 0; alternation < 3; alternation++) {
    for (const kind of KINDS) {
      results[kind].push(...(await inChild(kind)));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const min = (values) => Math.min(...values);
  const base = median(results.node);
  console.log('| server (in-process, no kernel) | CPU µs/req, median | min | × node:http |');
  console.log('|---|---:|---:|---:|');
  for (const kind of KINDS) {
    const m = median(results[kind]);
    console.log(`| ${kind} | ${m.toFixed(2)} | ${min(results[kind]).toFixed(2)} | ${(m / base).toFixed(2)} |`);
  }
}

/** Runs `kind` in a child process whose stdout (the service's log lines) goes to /dev/null. */
function inChild(kind) {
  return new Promise((resolve, reject) => {
    const child = fork(here, [kind], { stdio: ['ignore', openSync('/dev/null', 'w'), 'inherit', 'ipc'] });
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${kind}: exited with ${code} before reporting`)));
  });
}

/** Serves `kind` in this process and prints the CPU µs per request of each round as JSON. */
async function measureOne(kind, requests, rounds) {
  const body = await productsBody();
  let server;
  if (kind === 'node') {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    });
  } else if (kind === 'koa') {
    const Koa = createRequire(new URL('packages/adapters-http/package.json', root))('koa');
    const app = new Koa();
    app.use((ctx) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = body;
    });
    server = http.createServer(app.callback());
  } else if (kind === 'service' || kind === 'service-silent' || kind === 'service-metrics') {
    // startStorefront makes its server with http.createServer: keep it (the first: the second is
    // the metrics server), and never listen.
    const create = http.createServer;
    http.createServer = (...args) => {
      const made = create(...args);
      server ??= made;
      return made;
    };
    const { startStorefront } = await import(new URL('packages/app/dist/src/server.js', root).href);
    await startStorefront({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: kind === 'service-silent' ? 'silent' : 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      STOREFRONT_STORE: 'memory',
      RATE_LIMIT_MAX: '100000000',
      SCRYPT_LOG_N: '10',
      ...(kind === 'service-metrics' ? { METRICS_PORT: '0' } : {}),
    });
    http.createServer = create;
  } else {
    throw new Error(`kind: one of ${KINDS.join(', ')}`);
  }
  const drive = driver(server, body.length);
  await drive(20_000); // warm-up
  // Under callgrind: count only what follows.
  if (process.env.INPROCESS_CALLGRIND) await zeroCounts();
  const cpu = [];
  for (let i = 0; i < rounds; i++) cpu.push(await drive(requests));
  if (process.send === undefined) {
    console.error(JSON.stringify(cpu));
    process.exit(0);
  }
  process.send(cpu, () => process.exit(0));
}

/** The bytes of the service's GET /api/products (the demo menu), rendered as the service does. */
async function productsBody() {
  const { createMemoryAdapters, seedDemoData } = await import(new URL('packages/adapters-memory/dist/src/index.js', root).href);
  const { createCryptoAdapters } = await import(new URL('packages/adapters-crypto/dist/src/index.js', root).href);
  const { createStorefront } = await import(new URL('packages/domain/dist/src/index.js', root).href);
  const storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }) });
  await seedDemoData(storefront);
  const { createHttpApp } = await import(new URL('packages/adapters-http/dist/src/index.js', root).href);
  const app = createHttpApp({ storefront, logger: { info() {}, warn() {}, error() {} } });
  let bytes = Buffer.alloc(0);
  const socket = new FakeSocket((chunk) => (bytes = Buffer.concat([bytes, chunk])));
  const server = http.createServer(app.listener);
  server.emit('connection', socket);
  socket.push('GET /api/products HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 200));
  return bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
}

/** An in-memory socket: what the server writes goes to `sink`; requests are pushed in. */
class FakeSocket extends Duplex {
  constructor(sink) {
    super();
    this.sink = sink;
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 40000;
  }
  _read() {}
  _write(chunk, _encoding, callback) {
    this.sink(chunk);
    callback();
  }
  setTimeout() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
}

/**
 * `drive(n)` sends n requests over CONNECTIONS sockets, the next one on a socket as soon as its
 * previous response is complete, and resolves with the process's CPU µs per request.
 */
function driver(server, bodyLength) {
  const request = Buffer.from('GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  let remaining = 0;
  let active = 0;
  let done = () => {};
  const sockets = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    let received = 0;
    const socket = new FakeSocket((chunk) => {
      received += chunk.length;
      // A response is the header block and then the body: done once the body's bytes are in.
      if (received < bodyLength) return;
      received = 0;
      if (remaining > 0) {
        remaining--;
        setImmediate(() => socket.push(request));
      } else if (--active === 0) {
        done();
      }
    });
    server.emit('connection', socket);
    sockets.push(socket);
  }
  return async (n) => {
    remaining = n - CONNECTIONS;
    active = CONNECTIONS;
    const finished = new Promise((resolve) => (done = resolve));
    const before = process.cpuUsage();
    for (const socket of sockets) socket.push(request);
    await finished;
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  };
}

// Last, once the class above is defined.
if (process.argv[2] === undefined) {
  await compare();
} else if (process.argv[2] === '--instructions') {
  await instructions();
} else {
  await measureOne(process.argv[2], Number(process.argv[3] ?? 50_000), Number(process.argv[4] ?? 5));
}
