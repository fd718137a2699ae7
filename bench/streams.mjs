/**
 * The `streams` scenario of bench/run.mjs: 10,000 live order streams (`GET /api/staff/events`,
 * docs/decisions.md "Live order updates") held open on one service, against the same number of
 * bare node:http Server-Sent Events answers, in one run:
 *
 *  - RSS of the server before the streams and while they idle (VmRSS of /proc/<pid>/status, the
 *    highest of one reading a second), and the increase per stream;
 *  - the server's event-loop delay while they idle (monitorEventLoopDelay in the server, over IPC);
 *  - then orders moved as the kitchen over HTTP, one every 100 ms (or as soon as the answer to the
 *    one before came, when that took longer): the delay from each move's request being sent to each
 *    stream reading its event, over every (stream, move), and the check that every stream got every
 *    event exactly once (in increasing ids, no reset); then ten moves 600 ms apart, for the delay of
 *    one fan-out with nothing queued before it.
 *
 * The server is a child process (bench/service.mjs, memory mode, STOREFRONT_STREAMS_PER_CALLER so
 * that one kitchen account holds all streams); the streams are held by another
 * (bench/streams-client.mjs), and the moves are sent from this one. Targets (the issue): RSS under
 * 300 MiB with 10k streams, delivery p99 under 100 ms, event-loop delay p99 under 20 ms.
 *
 * The baseline (this file, forked with STREAMS_BASELINE=1): node:http answering every request with
 * the service's own SSE headers and `retry:` line, a `: ping` to every stream every 15 s from one
 * timer, and `POST /api/staff/orders/{id}/status` writing one `order.status` event to every open
 * stream before it answers: the floor of what holding and feeding the streams costs in Node, with
 * the same client measuring it.
 *
 *   node bench/run.mjs streams    # about 100 s; BENCH_STREAMS=2000 BENCH_STREAMS_IDLE=5 for a quick look
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const STREAMS = {
  count: Number(process.env.BENCH_STREAMS ?? 10_000),
  /** Streams opened at once; each batch waits for its answers (Node's listen backlog is 511). */
  batch: 250,
  idleSeconds: Number(process.env.BENCH_STREAMS_IDLE ?? 20),
  moves: 50,
  moveSpacingMs: 100,
  /** Then a few moves far apart: one fan-out's delivery time with nothing queued before it. */
  isolatedMoves: 10,
  isolatedSpacingMs: 600,
  /** How long the deliveries of the last move may take before the check counts them missing. */
  drainMs: 10_000,
  targets: { rssMiB: 300, deliveryP99Ms: 100, eldP99Ms: 20 },
};
const NEXT = ['accepted', 'preparing', 'ready', 'completed'];
const ELD_RESOLUTION_MS = 1;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS of a process, in bytes. */
function rssOf(pid) {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** One HTTP request with a JSON body (or none) on a keep-alive agent: status, parsed body, headers. */
function request(agent, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      { method, agent, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text === '' ? undefined : JSON.parse(text), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The headers and first bytes of one stream, then closed: what the baseline copies. */
function probeStream(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      res.setEncoding('latin1');
      res.once('data', (chunk) => {
        resolve({ status: res.statusCode, headers: res.rawHeaders, first: chunk });
        res.destroy();
      });
      if (res.statusCode !== 200) res.resume();
    });
    req.on('error', reject);
  });
}

/**
 * Runs the scenario with `child` (bench/run.mjs's, so that an interrupted run still stops every
 * process) and returns the lines to print: a table, the verdicts against the targets, notes.
 */
export async function streamsScenario({ child, serviceEnv, log }) {
  const loadBefore = os.loadavg();
  const t0 = performance.now();
  log(`streams: ${fmt(STREAMS.count)} GET /api/staff/events streams (batches of ${STREAMS.batch}), ${STREAMS.idleSeconds} s idle, then ${STREAMS.moves} moves ${STREAMS.moveSpacingMs} ms apart and ${STREAMS.isolatedMoves} moves ${STREAMS.isolatedSpacingMs} ms apart; the service, then a bare node:http SSE server`);

  // The service, and what its streams need: the kitchen's token, orders to move (placed before the
  // streams open, so the measured window holds moves only).
  const svc = await child('service.mjs', { ...serviceEnv, STOREFRONT_STREAMS_PER_CALLER: String(STREAMS.count), STOREFRONT_STREAMS_MAX: String(Math.max(STREAMS.count, 10_000)) }, { execArgv: ['--expose-gc'] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const login = async (email, password) =>
    (await request(agent, `${svc.url}/api/auth/login`, { method: 'POST', body: { email, password } })).body.access_token;
  const kitchen = { authorization: `Bearer ${await login('kitchen@example.com', 'kitchen-password')}` };
  const alice = { authorization: `Bearer ${await login('alice@example.com', 'alice-password')}` };
  const products = (await request(agent, `${svc.url}/api/products`)).body.products;
  // A dish that needs no option chosen (a required option group would refuse a bare line).
  const product = products.find((p) => p.available && (p.option_groups ?? []).every((g) => g.min === 0));
  const orderCount = Math.ceil((STREAMS.moves + STREAMS.isolatedMoves) / NEXT.length);
  const orderIds = [];
  for (let i = 0; i < orderCount; i++) {
    const placed = await request(agent, `${svc.url}/api/orders`, { method: 'POST', headers: alice, body: { items: [{ product_id: product.product_id, quantity: 1 }] } });
    if (placed.status !== 201) throw new Error(`streams: POST /api/orders answered ${placed.status} ${JSON.stringify(placed.body)}`);
    orderIds.push(placed.body.order_id);
  }
  const streamHeaders = { ...kitchen, accept: 'text/event-stream' };
  const probe = await probeStream(`${svc.url}/api/staff/events`, streamHeaders);
  if (probe.status !== 200) throw new Error(`streams: GET /api/staff/events answered ${probe.status}: ${probe.first}`);
  await sleep(200);
  const service = await measureTarget({ child, log, name: 'service', server: svc, agent, streamHeaders, moveHeaders: kitchen, orderIds });
  agent.destroy();
  await svc.stop();

  // The baseline: the service's own answer headers (less those Node writes) and first line.
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  const headers = [];
  for (let i = 0; i < probe.headers.length; i += 2) if (!own.has(probe.headers[i].toLowerCase())) headers.push([probe.headers[i], probe.headers[i + 1]]);
  const base = await child('streams.mjs', { PATH: process.env.PATH, STREAMS_BASELINE: '1', STREAMS_HEADERS: JSON.stringify(headers), STREAMS_FIRST: probe.first }, { execArgv: ['--expose-gc'] });
  const baseAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const baseline = await measureTarget({ child, log, name: 'baseline', server: base, agent: baseAgent, streamHeaders, moveHeaders: kitchen, orderIds });
  baseAgent.destroy();
  await base.stop();

  const loadAfter = os.loadavg();
  return report({ service, baseline, loadBefore, loadAfter, seconds: (performance.now() - t0) / 1000, preamble: probe.first });
}

/** One server: open the streams, let them idle, move orders, check and time every delivery, close. */
async function measureTarget({ child, log, name, server, agent, streamHeaders, moveHeaders, orderIds }) {
  const client = await child('streams-client.mjs', { PATH: process.env.PATH });
  try {
    const rssBefore = rssOf(server.pid);
    const heapBefore = (await server.call('memory')).heapUsed;
    const opened = await client.call('open', { url: server.url, path: '/api/staff/events', headers: streamHeaders, count: STREAMS.count, batch: STREAMS.batch });
    const rssOpen = rssOf(server.pid);
    log(`  ${name}: ${fmt(opened.opened)} streams open in ${fmt(opened.ms / 1000, 1)} s (${fmt(opened.failed)} failed${opened.failed > 0 ? `: ${JSON.stringify({ ...opened.statuses, ...opened.errors })}` : ''}); RSS ${mib(rssBefore)} → ${mib(rssOpen)} MiB`);

    // Idle: the event-loop delay and the highest RSS of one reading a second.
    const cpuIdle0 = await server.call('cpu');
    await server.call('eld-start', { resolution: ELD_RESOLUTION_MS });
    let rssIdle = rssOpen;
    for (let s = 0; s < STREAMS.idleSeconds; s++) {
      await sleep(1000);
      rssIdle = Math.max(rssIdle, rssOf(server.pid));
    }
    const eldIdle = await server.call('eld-stop');
    const cpuIdle = cpuDelta(cpuIdle0, await server.call('cpu'));
    const heapIdle = (await server.call('memory')).heapUsed;
    const clientRss = (await client.call('memory')).rss;
    log(`  ${name}: idle ${STREAMS.idleSeconds} s: RSS max ${mib(rssIdle)} MiB, event-loop delay p50 ${fmt(eldIdle.p50, 2)} p99 ${fmt(eldIdle.p99, 2)} max ${fmt(eldIdle.max, 1)} ms, CPU ${fmt((100 * cpuIdle) / 1e6 / STREAMS.idleSeconds, 1)} % of a core`);

    // The moves: move i takes order i % n one step on; its event is "<order_id>:<version>". First
    // the measured run (the targets), then a few far apart: one fan-out with nothing queued before it.
    const moves = Array.from({ length: STREAMS.moves + STREAMS.isolatedMoves }, (_, i) => {
      const orderId = orderIds[i % orderIds.length];
      const step = Math.floor(i / orderIds.length);
      return { orderId, status: NEXT[step], version: step + 2 };
    });
    const run = await moveRun({ server, client, agent, moveHeaders, moves: moves.slice(0, STREAMS.moves), spacingMs: STREAMS.moveSpacingMs });
    log(`  ${name}: ${STREAMS.moves} moves (${JSON.stringify(run.statuses)}) at ${fmt(run.rate, 1)}/s, ${deliveryLine(run.delivery)}`);
    const isolated = await moveRun({ server, client, agent, moveHeaders, moves: moves.slice(STREAMS.moves), spacingMs: STREAMS.isolatedSpacingMs });
    log(`  ${name}: ${STREAMS.isolatedMoves} moves ${STREAMS.isolatedSpacingMs} ms apart (${JSON.stringify(isolated.statuses)}), ${deliveryLine(isolated.delivery)}`);
    await client.call('close');
    return { opened, rssBefore, rssOpen, rssIdle, heapBefore, heapIdle, clientRss, eldIdle, cpuIdle, run, isolated };
  } finally {
    await client.stop();
  }
}

const deliveryLine = (d) =>
  `${fmt(d.delivered)} of ${fmt(d.expected)} deliveries: p50 ${fmt(d.p50, 1)} p99 ${fmt(d.p99, 1)} max ${fmt(d.max, 1)} ms; ${d.missing} missing, ${d.duplicates} twice, ${d.resets} resets, ${d.outOfOrder} out of order, ${d.ended} streams ended early`;

/**
 * Sends the moves one after the other, the next `spacingMs` after the one before was sent (or at
 * once when its answer took longer: a kitchen screen waits for the answer), then waits until every
 * stream has every event (or the drain time is up). Delivery times, the exactly-once check, the
 * server's event-loop delay and both processes' CPU time over the run.
 */
async function moveRun({ server, client, agent, moveHeaders, moves, spacingMs }) {
  await client.call('expect', { keys: moves.map((m) => `${m.orderId}:${m.version}`) });
  const cpu0 = await server.call('cpu');
  const clientCpu0 = await client.call('cpu');
  await server.call('eld-start', { resolution: ELD_RESOLUTION_MS });
  const sent = [];
  const answered = [];
  const statuses = {};
  const t0 = performance.now();
  for (const move of moves) {
    const at = performance.now();
    sent.push(now());
    const answer = await request(agent, `${server.url}/api/staff/orders/${move.orderId}/status`, { method: 'POST', headers: moveHeaders, body: { status: move.status } });
    answered.push(performance.now() - at);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (move !== moves.at(-1)) await sleep(Math.max(0, spacingMs - (performance.now() - at)));
  }
  const rate = (1000 * (moves.length - 1)) / Math.max(1, sent.at(-1) - sent[0]);
  let delivery;
  for (const until = performance.now() + STREAMS.drainMs; ; ) {
    delivery = await client.call('report', { sent });
    if (delivery.delivered + delivery.duplicates >= delivery.expected || performance.now() > until) break;
    await sleep(100);
  }
  const eld = await server.call('eld-stop');
  const cpu = cpuDelta(cpu0, await server.call('cpu'));
  const clientCpu = cpuDelta(clientCpu0, await client.call('cpu'));
  return { delivery, statuses, rate, eld, cpu, clientCpu, seconds: (performance.now() - t0) / 1000, answer: { p50: pct(answered, 50), p99: pct(answered, 99), max: Math.max(...answered) } };
}

function report({ service, baseline, loadBefore, loadAfter, seconds, preamble }) {
  const n = STREAMS.count;
  const perStream = (r) => (r.rssIdle - r.rssBefore) / Math.max(1, r.opened.opened);
  const perDelivery = (cpu, r) => cpu / Math.max(1, r.delivery.delivered);
  const d = (r) => r.delivery;
  const exact = (r) =>
    r.opened.failed === 0 && [r.run, r.isolated].every(({ delivery: x }) => x.missing === 0 && x.duplicates === 0 && x.unknown === 0 && x.resets === 0 && x.outOfOrder === 0 && x.ended === 0);
  const exactText = (r) =>
    [r.run, r.isolated]
      .map(({ delivery: x }) => `${fmt(x.delivered)} / ${fmt(x.expected)}${x.missing + x.duplicates + x.unknown + x.resets + x.outOfOrder + x.ended === 0 ? '' : ` (${x.missing} missing, ${x.duplicates} twice, ${x.unknown} unexpected, ${x.resets} resets, ${x.outOfOrder} out of order, ${x.ended} ended early)`}`)
      .join(' + ') + (exact(r) ? ', each once' : '');
  const ratio = (a, b) => (b > 0 ? `${fmt(a / b, 2)}×` : '');
  const t = STREAMS.targets;
  const both = (f) => `| ${f(service)} | ${f(baseline)}`;
  const lines = [
    `| ${fmt(n)} streams | service | node:http SSE baseline | service / baseline | target |`,
    '|---|---:|---:|---:|---|',
    `| streams opened (failed), ramp time ${both((r) => `${fmt(r.opened.opened)} (${fmt(r.opened.failed)}), ${fmt(r.opened.ms / 1000, 1)} s`)} | | every one |`,
    `| RSS before, MiB ${both((r) => mib(r.rssBefore))} | | |`,
    `| RSS with the streams idle (highest), MiB ${both((r) => mib(r.rssIdle))} | ${ratio(service.rssIdle, baseline.rssIdle)} | < ${t.rssMiB} |`,
    `| RSS per stream, KiB ${both((r) => fmt(perStream(r) / 1024, 1))} | ${ratio(perStream(service), perStream(baseline))} | |`,
    `| JS heap per stream (after a GC), KiB ${both((r) => fmt((r.heapIdle - r.heapBefore) / Math.max(1, r.opened.opened) / 1024, 1))} | | |`,
    `| idle ${STREAMS.idleSeconds} s: event-loop delay p50 / p99 / max, ms ${both((r) => eld(r.eldIdle))} | ${ratio(service.eldIdle.p99, baseline.eldIdle.p99)} (p99) | p99 < ${t.eldP99Ms} |`,
    `| idle: CPU, % of a core ${both((r) => fmt((100 * r.cpuIdle) / 1e6 / STREAMS.idleSeconds, 2))} | | |`,
    `| ${STREAMS.moves} moves, one every ${STREAMS.moveSpacingMs} ms or on the answer: moves/s achieved ${both((r) => fmt(r.run.rate, 1))} | | ${fmt(1000 / STREAMS.moveSpacingMs)} |`,
    `| delivery, move sent → event read, p50 / p90 / p99 / max, ms ${both((r) => delivery(r.run.delivery))} | ${ratio(d(service.run).p99, d(baseline.run).p99)} (p99) | p99 < ${t.deliveryP99Ms} |`,
    `| move answered (POST …/status), p50 / p99 / max, ms ${both((r) => `${fmt(r.run.answer.p50, 1)} / ${fmt(r.run.answer.p99, 1)} / ${fmt(r.run.answer.max, 1)}`)} | | |`,
    `| event-loop delay during the moves, p50 / p99 / max, ms ${both((r) => eld(r.run.eld))} | | |`,
    `| CPU per delivered event, µs: server ${both((r) => fmt(perDelivery(r.run.cpu, r.run), 2))} | ${ratio(perDelivery(service.run.cpu, service.run), perDelivery(baseline.run.cpu, baseline.run))} | |`,
    `| CPU per delivered event, µs: load client ${both((r) => fmt(perDelivery(r.run.clientCpu, r.run), 2))} | | |`,
    `| ${STREAMS.isolatedMoves} moves ${STREAMS.isolatedSpacingMs} ms apart (nothing queued): delivery p50 / p90 / p99 / max, ms ${both((r) => delivery(r.isolated.delivery))} | ${ratio(d(service.isolated).p99, d(baseline.isolated).p99)} (p99) | |`,
    `| every stream got every event exactly once, ids increasing ${both(exactText)} | | all |`,
  ];
  // A target is judged only with every stream open: fewer streams would flatter every figure.
  const judged = (met, figures) =>
    service.opened.failed > 0
      ? `**not measured** (only ${fmt(service.opened.opened)} of ${fmt(n)} streams opened: ${JSON.stringify({ ...service.opened.statuses, ...service.opened.errors })})`
      : `**${met ? 'met' : 'not met'}** (${figures})`;
  const verdicts = [
    `streams: RSS with ${fmt(n)} idle streams < ${t.rssMiB} MiB: ${judged(service.rssIdle < t.rssMiB * 2 ** 20, `${mib(service.rssIdle)} MiB, ${mib(service.rssBefore)} of it before the streams; ${fmt(perStream(service) / 1024, 1)} KiB per stream, the bare node:http server ${fmt(perStream(baseline) / 1024, 1)}`)}`,
    `streams: delivery p99 < ${t.deliveryP99Ms} ms with ${fmt(n)} streams: ${judged(d(service.run).p99 < t.deliveryP99Ms, `${fmt(d(service.run).p99, 1)} ms over ${fmt(d(service.run).delivered)} deliveries of ${STREAMS.moves} moves at ${fmt(service.run.rate, 1)}/s, the bare server ${fmt(d(baseline.run).p99, 1)} ms; moves ${STREAMS.isolatedSpacingMs} ms apart: ${fmt(d(service.isolated).p99, 1)} ms, the bare server ${fmt(d(baseline.isolated).p99, 1)} ms`)}`,
    `streams: event-loop delay p99 < ${t.eldP99Ms} ms with ${fmt(n)} idle streams: ${judged(service.eldIdle.p99 < t.eldP99Ms, `${fmt(service.eldIdle.p99, 2)} ms over ${STREAMS.idleSeconds} s; the bare server ${fmt(baseline.eldIdle.p99, 2)} ms`)}`,
    `streams: every one of ${fmt(n)} streams got every one of ${STREAMS.moves + STREAMS.isolatedMoves} events exactly once, in increasing ids: **${exact(service) ? 'yes' : 'NO'}** (${exactText(service)})`,
  ];
  const notes = [
    `streams: each stream opens with ${JSON.stringify(preamble)}; the load client (one Node process, node:http) held ${fmt(n)} streams in ${mib(service.clientRss)} MiB RSS. A delivery time includes the client's own reading: it reads the ${fmt(n)} copies of an event one after the other, at the CPU cost per event above, on a core it shares with the server and the neighbours; the bare server's figures are that floor`,
    `streams: move answers ${JSON.stringify(service.run.statuses)} + ${JSON.stringify(service.isolated.statuses)} (service), ${JSON.stringify(baseline.run.statuses)} + ${JSON.stringify(baseline.isolated.statuses)} (baseline); load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} at the end (nproc ${os.cpus().length}); ${fmt(seconds)} s`,
  ];
  return { table: lines, verdicts, notes };
}

function cpuDelta(a, b) {
  return b.user - a.user + b.system - a.system;
}
function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function fmt(n, digits = 0) {
  return n === undefined || Number.isNaN(n) ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
const mib = (bytes) => fmt(bytes / 2 ** 20, 1);
const eld = (h) => `${fmt(h.p50, 2)} / ${fmt(h.p99, 2)} / ${fmt(h.max, 1)}`;
const delivery = (d) => `${fmt(d.p50, 1)} / ${fmt(d.p90, 1)} / ${fmt(d.p99, 1)} / ${fmt(d.max, 1)}`;

/** The bare node:http SSE server (forked with STREAMS_BASELINE=1), steered like bench/service.mjs. */
async function serveBaseline() {
  const headers = JSON.parse(process.env.STREAMS_HEADERS).flat();
  const first = process.env.STREAMS_FIRST;
  const open = new Set();
  let nextId = 1;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, headers);
      res.write(first);
      open.add(res);
      res.on('close', () => open.delete(res));
      return;
    }
    // POST /api/staff/orders/{id}/status: one event to every stream, then the answer.
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const orderId = req.url.split('/')[4];
      const version = (versions.get(orderId) ?? 1) + 1;
      versions.set(orderId, version);
      const { status } = JSON.parse(body);
      const event = `id: ${nextId++}\nevent: order.status\ndata: ${JSON.stringify({ order_id: orderId, status, version, at: new Date().toISOString() })}\n\n`;
      for (const stream of open) stream.write(event);
      const answer = JSON.stringify({ order_id: orderId, status, version });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  const versions = new Map();
  server.keepAliveTimeout = 5_000;
  setInterval(() => {
    for (const stream of open) stream.write(': ping\n\n');
  }, 15_000).unref();
  let histogram = null;
  const handlers = {
    'eld-start': ({ resolution }) => {
      histogram = monitorEventLoopDelay({ resolution });
      histogram.enable();
      return { resolution };
    },
    'eld-stop': () => {
      histogram.disable();
      const ms = (ns) => Math.max(0, ns / 1e6 - ELD_RESOLUTION_MS);
      return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), samples: histogram.count };
    },
    memory: () => {
      globalThis.gc?.();
      return process.memoryUsage();
    },
    cpu: () => process.cpuUsage(),
    stop: () => {
      for (const stream of open) stream.end();
      server.close(() => process.exit(0));
      server.closeAllConnections();
      return {};
    },
  };
  process.on('message', async (message) => {
    process.send({ id: message.id, ok: true, result: await handlers[message.cmd](message) });
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` }));
}

if (process.env.STREAMS_BASELINE === '1') await serveBaseline();
