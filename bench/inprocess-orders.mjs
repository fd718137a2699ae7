#!/usr/bin/env node
/**
 * The JavaScript cost of `POST /api/orders` against `GET /api/products` in the memory store,
 * without the kernel or a load generator (as bench/inprocess.mjs does for the menu): the service's
 * request listener is fed HTTP/1.1 requests through 16 in-memory sockets, one request in flight on
 * each; a fresh Idempotency-Key on every POST. Prints the CPU µs per request of each, alternated,
 * and the stored orders counted against the 201s.
 *
 *   node bench/inprocess-orders.mjs [requests] [rounds]       # default 20,000 × 5 of each
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/inprocess-orders.mjs 20000 1 post
 *   node bench/inprocess-orders.mjs --instructions [requests] # instructions per request under valgrind (~6 min)
 *
 * The CPU figures also say how much of it ran off the main thread (V8's garbage-collection helpers:
 * the memory store keeps every order, and its collection is part of a placement's price).
 * `--instructions` counts, under `valgrind --tool=callgrind`, the instructions of 1,500 requests of
 * each kind after the same warm-ups (GET and POST in two processes at once, one per core), the main
 * thread apart: a count that moves by a few % between runs where CPU time moves by 15 %, and that
 * says how much more work a POST does, apart from how long the machine's memory makes it wait
 * (docs/performance.md).
 *
 * Run from a fresh `tsc -b`. Exported for bench/run.mjs (`pnpm bench memorders`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { countInstructions, zeroCounts } from './callgrind.mjs';

const CONNECTIONS = 16;
const root = new URL('..', import.meta.url);

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

/** A keep-alive connection to `server` that sends one request at a time and parses the answer. */
export function connection(server) {
  let buffer = Buffer.alloc(0);
  let waiting = null;
  const socket = new FakeSocket((chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buffer.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const status = Number(head.slice(9, 12));
    const body = buffer.subarray(end + 4, end + 4 + length);
    buffer = buffer.subarray(end + 4 + length);
    const done = waiting;
    waiting = null;
    done({ status, body });
  });
  server.emit('connection', socket);
  return (raw) =>
    new Promise((resolve) => {
      waiting = resolve;
      socket.push(raw);
    });
}

export function raw(method, path, headers = {}, body) {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** Starts the service in memory mode in this process and returns its never-listening server. */
export async function startInProcess(env = {}) {
  let server;
  const create = http.createServer;
  http.createServer = (...args) => {
    const made = create(...args);
    server ??= made;
    return made;
  };
  const { startStorefront } = await import(new URL('packages/app/dist/src/server.js', root).href);
  const running = await startStorefront({
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    STOREFRONT_STORE: 'memory',
    RATE_LIMIT_MAX: '100000000',
    LOGIN_RATE_LIMIT_MAX: '100000000',
    SCRYPT_LOG_N: '10',
    ...env,
  });
  http.createServer = create;
  await running.ready;
  return { server, running };
}

/**
 * `drive(n, next)`: n requests from `next()` over CONNECTIONS connections → { cpu µs/req, statuses }.
 * Each request is sent from a turn of the event loop of its own, as one read from a socket would
 * arrive, so that work the service leaves for a later turn (the event relay publishes once per
 * turn) runs between requests as it does over HTTP; `settle` (the relay's last drain) runs before
 * the clock stops.
 */
export async function drive(connections, n, next, settle = async () => undefined) {
  const statuses = new Map();
  let remaining = n;
  const helpersBefore = helperThreadsCpu();
  const before = process.cpuUsage();
  await Promise.all(
    connections.map(async (send) => {
      while (remaining > 0) {
        remaining--;
        await new Promise(setImmediate);
        const { status } = await send(next());
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  await settle();
  const used = process.cpuUsage(before);
  const helpers = helperThreadsCpu() - helpersBefore;
  return { cpu: (used.user + used.system) / n, helpers: helpers / n, statuses };
}

/** CPU µs used so far by this process's threads other than the main one (/proc; 0 elsewhere). */
function helperThreadsCpu() {
  let ticks = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    // Not Linux, or a thread ended meanwhile: the split is a hint, not a figure the bench relies on.
  }
  // USER_HZ: /proc's CPU times are in hundredths of a second.
  return ticks * 10_000;
}

export async function measureMemoryOrders({ requests = 20_000, rounds = 5, only, env = {}, callgrind = false } = {}) {
  const { server, running } = await startInProcess(env);
  const connections = Array.from({ length: CONNECTIONS }, () => connection(server));
  const send = connections[0];
  const login = await send(raw('POST', '/api/auth/login', { 'Content-Type': 'application/json' }, JSON.stringify({ email: 'alice@example.com', password: 'alice-password' })));
  const token = JSON.parse(login.body).access_token;
  const menu = JSON.parse((await send(raw('GET', '/api/products'))).body).products;
  const dish = menu.find((p) => p.available && (p.option_groups ?? []).every((g) => g.min === 0));
  const body = JSON.stringify({ items: [{ product_id: dish.product_id, quantity: 2 }] });
  const prefix = `inproc-${Date.now().toString(36)}-`;
  let n = 0;
  const post = () => raw('POST', '/api/orders', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': prefix + ++n }, body);
  const getRaw = raw('GET', '/api/products');
  const get = () => getRaw;
  // Warm-up of both.
  await drive(connections, 5_000, get);
  await drive(connections, 5_000, post);
  // Under callgrind: count only what follows.
  if (callgrind) await zeroCounts();
  // Everything the relay had left to publish, published inside the measured window.
  const published = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await running.storefront.orderEvents.drain();
  };
  const results = { get: [], post: [], helpers: { get: [], post: [] } };
  let created = 5_000; // the warm-up's (checked below: all 201)
  let bad = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [name, next] of [['get', get], ['post', post]]) {
      if (only !== undefined && only !== name) continue;
      const { cpu, helpers, statuses } = await drive(connections, requests, next, published);
      results[name].push(cpu);
      results.helpers[name].push(helpers);
      if (name === 'post') created += statuses.get(201) ?? 0;
      for (const [status, count] of statuses) if (status !== (name === 'post' ? 201 : 200)) bad += count;
    }
  }
  const listed = await send(raw('GET', '/api/orders?limit=1', { Authorization: `Bearer ${token}` }));
  const stored = JSON.parse(listed.body).meta.total;
  return { ...results, created, stored, bad };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Instructions per request of GET and POST, each counted by callgrind in a process of its own after
 * the same warm-ups (both kinds, as measureMemoryOrders does), the two processes at once.
 */
async function instructions(requests) {
  const here = fileURLToPath(import.meta.url);
  const count = (kind) => countInstructions(here, ['--count', kind, String(requests)], requests);
  const [get, post] = await Promise.all([count('get'), count('post')]);
  const row = (name, c) => `| ${name} | ${Math.round(c.main).toLocaleString('en-US')} | ${Math.round(c.others).toLocaleString('en-US')} |`;
  console.log('| request (memory, in-process, no kernel) | instructions per request, main thread | other threads |');
  console.log('|---|---:|---:|');
  console.log(row('GET /api/products', get));
  console.log(row('POST /api/orders, fresh Idempotency-Key', post));
  console.log(`\nPOST/GET instructions on the main thread: ${(post.main / get.main).toFixed(2)} (the target is 2.5 × in CPU time)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--instructions') {
    await instructions(Number(process.argv[3] ?? 1_500));
    process.exit(0);
  }
  if (process.argv[2] === '--count') {
    // A child of --instructions, under callgrind: one kind, one round, counted from the zeroing.
    const r = await measureMemoryOrders({ requests: Number(process.argv[4]), rounds: 1, only: process.argv[3], callgrind: true });
    process.exit(r.stored === r.created && r.bad === 0 ? 0 : 1);
  }
  const requests = Number(process.argv[2] ?? 20_000);
  const rounds = Number(process.argv[3] ?? 5);
  // INPROCESS_LOG_LEVEL=info: with the access log, as the service runs (stdout to /dev/null then).
  const env = process.env.INPROCESS_LOG_LEVEL === undefined ? {} : { LOG_LEVEL: process.env.INPROCESS_LOG_LEVEL };
  const r = await measureMemoryOrders({ requests, rounds, only: process.argv[4] || undefined, env });
  const fmt = (xs) => (xs.length === 0 ? '–' : `${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(0)).join(', ')})`);
  const helpers = (name) => (r[name].length === 0 ? '' : `; off the main thread ${median(r.helpers[name]).toFixed(1)}`);
  console.error(`GET /api/products, memory, in-process: CPU µs/req median ${fmt(r.get)}${helpers('get')}`);
  console.error(`POST /api/orders, memory, in-process: CPU µs/req median ${fmt(r.post)}${helpers('post')}`);
  if (r.get.length > 0 && r.post.length > 0) console.error(`POST/GET CPU: ${(median(r.post) / median(r.get)).toFixed(2)} (target ≤ 2.5)`);
  console.error(`orders stored ${r.stored} for ${r.created} 201s; other statuses ${r.bad}${r.stored === r.created ? '' : ' — MISMATCH'}`);
  process.exit(r.stored === r.created && r.bad === 0 ? 0 : 1);
}
