/**
 * The load client of the `kitchen` scenario (bench/run.mjs), in its own process so that it shares
 * no event loop with the service or the driver. A kitchen is not one request repeated: customers
 * place orders and poll them while the staff read the queue and move orders along, each move
 * carrying the version of the answer before it (If-Match). wrk replays one request; this client
 * keeps that state.
 *
 * Started with `fork`; the parent sends one message
 *   { base, warmup, duration, customers: [token], staffToken, productId, placers, pollers, staff }
 * and gets back { ok: true, result } with, per kind of request, the counts of each status answered,
 * errors, and latency percentiles of the measured window. Every worker is one keep-alive connection
 * (an `http.Agent` with one socket), requests go back to back (flat out, no think time), to
 * 127.0.0.1 only, and the process exits by itself after warmup + duration (+ a hard stop).
 *
 * Races are the point of the staff workers: each picks one of the oldest three open orders at
 * random, so two of them often move the same order; the loser's 412 (or 409) is counted as an
 * answer, not a failure. Only a 5xx, a network error or an answer no client should see is.
 */
import http from 'node:http';
import { createHistogram } from 'node:perf_hooks';

const NEXT = { placed: 'accepted', accepted: 'preparing', preparing: 'ready', ready: 'completed' };
const KINDS = ['place', 'poll', 'queue', 'move'];
/** The statuses each kind may answer in a kitchen working as designed. */
const EXPECTED = { place: [201], poll: [200, 304], queue: [200], move: [200, 409, 412] };
const RECENT = 64;

process.once('message', (config) => {
  run(config).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1)),
  );
});
process.on('disconnect', () => process.exit(0));

async function run(config) {
  const base = new URL(config.base);
  if (base.hostname !== '127.0.0.1') throw new Error(`kitchen load: loopback only, not ${base.hostname}`);
  // A hard stop whatever happens: the run is warm-up + duration, plus time for answers in flight.
  setTimeout(() => {
    console.error('kitchen load: hard stop');
    process.exit(2);
  }, (config.warmup + config.duration + 20) * 1000).unref();

  const stats = Object.fromEntries(KINDS.map((kind) => [kind, { statuses: {}, errors: 0, histogram: createHistogram() }]));
  /** Every answer from the start (warm-up included), for the end-of-run consistency check. */
  const totals = { placed: 0, moves: { accepted: 0, preparing: 0, ready: 0, completed: 0 } };
  const t0 = performance.now();
  const measureFrom = t0 + config.warmup * 1000;
  const stopAt = measureFrom + config.duration * 1000;
  const running = () => performance.now() < stopAt;

  /** One request on `agent`; the answer counted in `kind` when it started and ended in the window. */
  function request(agent, kind, method, path, headers, body) {
    return new Promise((resolve) => {
      const started = performance.now();
      const done = (status, text, answerHeaders) => {
        const ended = performance.now();
        if (started >= measureFrom && ended <= stopAt) {
          const s = stats[kind];
          if (status === 0) s.errors++;
          else s.statuses[status] = (s.statuses[status] ?? 0) + 1;
          s.histogram.record(Math.max(1, Math.round((ended - started) * 1e6)));
        }
        resolve({ status, text, headers: answerHeaders });
      };
      const req = http.request(
        { host: '127.0.0.1', port: base.port, method, path, agent, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => done(res.statusCode, Buffer.concat(chunks).toString(), res.headers));
          res.on('error', () => done(0, '', {}));
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => done(0, '', {}));
      req.end(body);
    });
  }
  const agent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bearer = (token) => ({ authorization: `Bearer ${token}` });
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Per customer, the orders it placed lately (id → last ETag seen), for its pollers. */
  const recent = config.customers.map(() => []);
  const etags = new Map();

  async function placer(i) {
    const a = agent();
    const c = i % config.customers.length;
    const body = JSON.stringify({ items: [{ product_id: config.productId, quantity: 1 }] });
    while (running()) {
      const { status, text } = await request(a, 'place', 'POST', '/api/orders', bearer(config.customers[c]), body);
      if (status !== 201) continue;
      totals.placed++;
      const order = JSON.parse(text);
      recent[c].push(order.order_id);
      if (recent[c].length > RECENT) etags.delete(recent[c].shift());
    }
    a.destroy();
  }

  async function poller(i) {
    const a = agent();
    const c = i % config.customers.length;
    while (running()) {
      const ids = recent[c];
      if (ids.length === 0) {
        await pause(5);
        continue;
      }
      const id = ids[Math.floor(Math.random() * ids.length)];
      const tag = etags.get(id);
      const headers = tag === undefined ? bearer(config.customers[c]) : { ...bearer(config.customers[c]), 'if-none-match': tag };
      const { status, headers: answer } = await request(a, 'poll', 'GET', `/api/orders/${id}`, headers);
      if (status === 200 && answer.etag !== undefined && ids.includes(id)) etags.set(id, answer.etag);
    }
    a.destroy();
  }

  async function kitchenScreen() {
    const a = agent();
    const staff = bearer(config.staffToken);
    while (running()) {
      const { status, text } = await request(a, 'queue', 'GET', '/api/staff/orders?limit=10', staff);
      if (status !== 200) continue;
      const open = JSON.parse(text).orders.slice(0, 3);
      if (open.length === 0) {
        await pause(5);
        continue;
      }
      // Carry one order as far as it goes, each move on the version the previous answer gave.
      let order = open[Math.floor(Math.random() * open.length)];
      while (running() && NEXT[order.status] !== undefined) {
        const to = NEXT[order.status];
        const moved = await request(a, 'move', 'POST', `/api/staff/orders/${order.order_id}/status`, { ...staff, 'if-match': `"${order.version}"` }, JSON.stringify({ status: to }));
        if (moved.status !== 200) break;
        totals.moves[to]++;
        order = JSON.parse(moved.text);
      }
    }
    a.destroy();
  }

  const workers = [
    ...Array.from({ length: config.placers }, (_, i) => placer(i)),
    ...Array.from({ length: config.pollers }, (_, i) => poller(i)),
    ...Array.from({ length: config.staff }, () => kitchenScreen()),
  ];
  await Promise.all(workers);

  const kinds = {};
  for (const kind of KINDS) {
    const { statuses, errors, histogram } = stats[kind];
    const answered = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    const ok = Object.entries(statuses).reduce((sum, [status, n]) => sum + (Number(status) < 300 || Number(status) === 304 ? n : 0), 0);
    const unexpected = Object.entries(statuses).reduce((sum, [status, n]) => sum + (EXPECTED[kind].includes(Number(status)) ? 0 : n), 0);
    const ms = (p) => (histogram.count === 0 ? NaN : Math.round(histogram.percentile(p) / 1e4) / 100);
    kinds[kind] = { statuses, errors, answered, ok, unexpected, rps: ok / config.duration, answeredRps: answered / config.duration, p50: ms(50), p99: ms(99), max: ms(100) };
  }
  // The client's own CPU share: on a small machine it competes with the service for the cores.
  const cpu = process.cpuUsage();
  return { kinds, totals, cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - t0) / 1000 };
}
