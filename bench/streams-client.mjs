/**
 * The load client of the `streams` scenario (bench/streams.mjs): holds thousands of Server-Sent
 * Events streams open against one server, in its own process so that it shares no event loop with
 * the server or the driver. Plain node:http, one socket per stream, and as little per stream as it
 * can hold: the response, an index, and a slot in two typed arrays (count and arrival time per
 * expected event), so that the client's own cost stays small next to the server's.
 *
 * Forked with bench/lib.mjs `startChild` (a `ready` message, then commands over IPC):
 *
 *   { cmd: 'open', url, path, headers, count, batch }
 *        opens `count` streams in batches of `batch` (each batch waits for its answers, so that the
 *        server's listen backlog is never overrun) → { opened, failed, statuses, errors, ms }
 *   { cmd: 'expect', keys }     the events to watch for, as "<order_id>:<version>"; resets the record
 *   { cmd: 'report', sent }     `sent[i]`: when the move producing keys[i] was sent (timeOrigin + now,
 *                               ms) → delivery delays p50/p99/max over every (stream, event), and the
 *                               exactly-once check: { delivered, expected, missing, duplicates,
 *                               unknown, resets, outOfOrder, ended, p50, p90, p99, max }
 *   { cmd: 'close' }            closes every stream → { closed }
 *   { cmd: 'memory' }           → { rss, heapUsed } of this process
 *   { cmd: 'cpu' }              → process.cpuUsage() of this process
 *   { cmd: 'stop' }             exits
 *
 * Times are `performance.timeOrigin + performance.now()`, comparable across processes of one machine.
 * Loopback only; exits by itself after three minutes whatever happens.
 */
import http from 'node:http';
import { answerParent } from './child.mjs';

const HARD_STOP_MS = 180_000;
setTimeout(() => {
  console.error('streams client: hard stop');
  process.exit(2);
}, HARD_STOP_MS).unref();

const now = () => performance.timeOrigin + performance.now();

/** Open streams: the response of each, by index; null once it ended or failed. */
let responses = [];
/** Expected events: key → index; per (stream, event) the times it arrived and when it first did. */
let keyIndex = new Map();
let counts = new Uint8Array(0);
let arrivals = new Float64Array(0);
/** Per stream, the last event id seen (as a number), to check the ids increase; and whether it opened. */
let lastIds = new Float64Array(0);
let opened = new Uint8Array(0);
const tally = { unknown: 0, resets: 0, outOfOrder: 0, ended: 0 };
let closing = false;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/**
 * One chunk of one stream (a string, with what was left of the one before): every whole event in
 * it is looked at, and what follows the last blank line is handed back to wait for the rest. The
 * server writes each event whole, so that is almost always nothing.
 */
function onChunk(stream, text) {
  const at = now();
  const whole = text.lastIndexOf('\n\n');
  if (whole < 0) return text;
  for (let from = 0; from < whole; ) {
    let end = text.indexOf('\n\n', from);
    if (end < 0 || end > whole) end = whole;
    // Comment lines (`: ping`) and the `retry:` line carry nothing to check.
    if (text.charCodeAt(from) !== 58) onEvent(stream, text, from, end, at);
    from = end + 2;
  }
  return whole + 2 === text.length ? '' : text.slice(whole + 2);
}

/** One event, text[from, end): `id:`, `event:` and `data:` lines. */
function onEvent(stream, text, from, end, at) {
  const eventAt = text.indexOf('event: ', from);
  if (eventAt >= 0 && eventAt < end && text.startsWith('reset', eventAt + 7)) tally.resets++;
  const idAt = text.indexOf('id: ', from);
  if (idAt >= 0 && idAt < end) {
    const id = Number.parseInt(text.slice(idAt + 4, idAt + 24), 10);
    if (id <= lastIds[stream]) tally.outOfOrder++;
    lastIds[stream] = id;
  }
  const dataAt = text.indexOf('data: ', from);
  if (dataAt >= 0 && dataAt < end) record(stream, text.slice(dataAt + 6, end), at);
}

function record(stream, json, at) {
  // `order.status` data: {order_id, status, version, at, reason?}; `order.placed`: the order.
  const orderAt = json.indexOf('"order_id":"');
  const versionAt = json.indexOf('"version":');
  if (orderAt < 0 || versionAt < 0) return;
  const orderId = json.slice(orderAt + 12, json.indexOf('"', orderAt + 12));
  const version = Number.parseInt(json.slice(versionAt + 10), 10);
  const index = keyIndex.get(`${orderId}:${version}`);
  if (index === undefined) {
    tally.unknown++;
    return;
  }
  const slot = stream * keyIndex.size + index;
  if (counts[slot] < 255) counts[slot]++;
  if (counts[slot] === 1) arrivals[slot] = at;
}

function openOne(url, headers, stream) {
  return new Promise((resolve) => {
    const request = http.request(url, { agent, headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        resolve({ status: response.statusCode });
        return;
      }
      responses[stream] = response;
      opened[stream] = 1;
      response.setEncoding('latin1');
      let rest = '';
      let first = true;
      response.on('data', (chunk) => {
        // The answer is counted as open once its first bytes (`retry:`) arrived.
        if (first) {
          first = false;
          resolve({ status: 200 });
        }
        rest = onChunk(stream, rest === '' ? chunk : rest + chunk);
      });
      response.on('close', () => {
        if (responses[stream] === response) {
          responses[stream] = null;
          if (!closing) tally.ended++;
        }
      });
      response.on('error', () => undefined);
    });
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
    request.end();
  });
}

const handlers = {
  async open({ url, path, headers, count, batch }) {
    const target = new URL(path, url);
    if (target.hostname !== '127.0.0.1') throw new Error(`streams client: loopback only, not ${target.hostname}`);
    closing = false;
    responses = new Array(count).fill(null);
    lastIds = new Float64Array(count);
    opened = new Uint8Array(count);
    tally.ended = 0;
    const statuses = {};
    const errors = {};
    let ok = 0;
    const t0 = performance.now();
    for (let i = 0; i < count; i += batch) {
      const results = await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => openOne(target, headers, i + k)));
      for (const r of results) {
        if (r.status === 200) ok++;
        else if (r.status !== undefined) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        else errors[r.error] = (errors[r.error] ?? 0) + 1;
      }
    }
    return { opened: ok, failed: count - ok, statuses, errors, ms: performance.now() - t0 };
  },
  expect({ keys }) {
    keyIndex = new Map(keys.map((key, i) => [key, i]));
    counts = new Uint8Array(responses.length * keys.length);
    arrivals = new Float64Array(responses.length * keys.length);
    tally.unknown = 0;
    tally.resets = 0;
    tally.outOfOrder = 0;
    return {};
  },
  report({ sent }) {
    const n = keyIndex.size;
    const delays = [];
    let missing = 0;
    let duplicates = 0;
    let streamsOpen = 0;
    for (let stream = 0; stream < responses.length; stream++) {
      // Only the streams that opened are expected to deliver (failures are counted at `open`).
      if (opened[stream] === 0) continue;
      streamsOpen++;
      for (let i = 0; i < n; i++) {
        const c = counts[stream * n + i];
        if (c === 0) missing++;
        else {
          if (c > 1) duplicates += c - 1;
          delays.push(arrivals[stream * n + i] - sent[i]);
        }
      }
    }
    const sorted = Float64Array.from(delays).sort();
    const at = (p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
    return {
      streams: streamsOpen,
      expected: streamsOpen * n,
      delivered: delays.length,
      missing,
      duplicates,
      unknown: tally.unknown,
      resets: tally.resets,
      outOfOrder: tally.outOfOrder,
      ended: tally.ended,
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
    };
  },
  close() {
    closing = true;
    let closed = 0;
    for (const response of responses) {
      if (response === null) continue;
      response.destroy();
      closed++;
    }
    responses = [];
    return { closed };
  },
  memory() {
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heapUsed };
  },
  cpu() {
    return process.cpuUsage();
  },
  stop() {
    setImmediate(() => process.exit(0));
    return {};
  },
};

answerParent(handlers);
