#!/usr/bin/env node
/**
 * `pnpm bench`: HTTP benchmarks of Storefront against a bare node:http baseline; loopback only,
 * about eighteen minutes (five of them placement with and without card payments, a minute and a half of it the 10,000 live streams of bench/streams.mjs, a minute the metrics cost,
 * two and a half the cost of schema checking, a minute and a half PostgreSQL inserts),
 * stops by itself. See docs/performance.md for results and method.
 *
 * The service runs in child processes (bench/service.mjs: `startStorefront` in memory mode, the
 * rate limiter on with a limit it never reaches); the node:http baseline and the bare Koa and
 * Fastify peers in others (bench/baseline.mjs); the load generator (wrk when on the PATH, else
 * autocannon) is driven from here. Every scenario has a warm-up run first. Ratios to the baseline
 * come from runs alternated with it (the machine is shared, so load drifts), and each server's CPU
 * time per request is printed as well: it moves less with the neighbours' load. The `kitchen` mix is
 * driven by a load client of its own (bench/kitchen-load.mjs), since its requests carry state
 * (an order's id and version from the answer before).
 *
 *   node bench/run.mjs [scenario ...]   # all by default: products schema metrics search typo auth orders pgorders placement payments pginserts webhooks orderreads fulfilment logins paging kitchen queue streams jscost
 *   BENCH_DURATION=3 BENCH_CONNECTIONS=16 BENCH_ROUNDS=5 BENCH_GENERATOR=wrk node bench/run.mjs
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { writeMenuFile } from './gen-menu.mjs';
import { generator, json, login, measure, runLoadChild, startChild } from './lib.mjs';
import { metricsScenario } from './metrics.mjs';
import { median, summarize } from './stats.mjs';
import { streamsScenario } from './streams.mjs';
import { fulfilmentScenario } from './fulfilment.mjs';
import { typoScenario } from './search-typo.mjs';
import { postgresOrdersScenario } from './postgres-orders.mjs';
import { placementScenario } from './placement.mjs';
import { koaRouterEnv, schemaScenario } from './schema.mjs';
import { webhooksScenario } from './webhooks.mjs';
import { paymentsScenario } from './payments.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MENU_SIZE = 100_000;
const PAGING_ORDERS = 1_000_000;
const SEARCH_QUERY = 'chicken sp';
const ELD_RESOLUTION_MS = 1;
/** orderreads: the orders the reading customer has at least, and the targets (of /api/products). */
const READ_ORDERS = 25;
const READ_TARGETS = { list: 0.5, detail: 0.7 };
/** kitchen: clients of each kind, one keep-alive connection each (16 in all, as the other runs). */
const KITCHEN = { warmup: 1, duration: Number(process.env.BENCH_KITCHEN_SECONDS ?? 8), placers: 4, pollers: 8, staff: 4 };
/** queue: orders in the store, and where they end (order j at the status at j mod 20). */
const QUEUE_ORDERS = 1_000_000;
const QUEUE_MIX = { placed: 12, accepted: 2, preparing: 2, ready: 1, completed: 2, cancelled: 1 };
const QUEUE_DEEP_PAGE = 5000;
const QUEUE_ROUNDS = Math.max(1, ROUNDS - 2);
const only = new Set(process.argv.slice(2));
const wanted = (name) => only.size === 0 || only.has(name);

/** Memory mode, limiter on with a limit it never reaches, fast hashing, logs as shipped (info). */
const SERVICE_ENV = {
  PATH: process.env.PATH,
  PORT: '0',
  HOST: '127.0.0.1',
  STOREFRONT_STORE: 'memory',
  LOG_LEVEL: 'info',
  SCRYPT_LOG_N: '10',
  RATE_LIMIT_MAX: '100000000',
  LOGIN_RATE_LIMIT_MAX: '100000000',
  UV_THREADPOOL_SIZE: '8',
};
/** What `pnpm start` runs with (info logs to stdout, scrypt logN 17, 4 hashes at once), limits lifted. */
const START_DEFAULTS_ENV = {
  PATH: process.env.PATH,
  PORT: '0',
  HOST: '127.0.0.1',
  RATE_LIMIT_MAX: '100000000',
  LOGIN_RATE_LIMIT_MAX: '100000000',
  UV_THREADPOOL_SIZE: '8',
};

const rows = [];
const notes = [];
const verdicts = [];
const log = (line) => console.error(line);
const fmt = (n, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (bytes) => fmt(bytes / 2 ** 20);

function row(scenario, m, ratio, against) {
  rows.push({ scenario, ...m, ratio, against });
  const extra = [ratio === undefined ? '' : `${fmt(ratio, 2)} of ${against}`, m.cpu === undefined ? '' : `${fmt(m.cpu, 1)} µs CPU/req`, m.bad > 0 ? `${m.bad} non-2xx!` : '']
    .filter(Boolean)
    .join(', ');
  log(`  ${scenario}: ${fmt(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${extra ? `; ${extra}` : ''}`);
}

const tmp = mkdtempSync(join(os.tmpdir(), 'storefront-bench-'));
const children = new Set();
async function child(script, env, options) {
  const c = await startChild(script, env, options);
  children.add(c);
  return {
    ...c,
    stop: async () => {
      children.delete(c);
      await c.stop();
    },
  };
}
async function cleanup() {
  await Promise.allSettled([...children].map((c) => c.stop()));
  rmSync(tmp, { recursive: true, force: true });
}
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

/** A measured run, with the target process's CPU time per answered request when it can tell. */
async function run(target, options) {
  let before;
  const m = await measure({ connections: CONNECTIONS, duration: DURATION, ...options, afterWarmup: async () => (before = await target.call('cpu')) });
  const after = await target.call('cpu');
  const answered = m.requests + m.bad;
  return { ...m, cpu: answered > 0 ? (after.user - before.user + after.system - before.system) / answered : undefined };
}

/**
 * Alternates the baseline with each target, round after round; for each target the medians of its
 * runs and the median of its per-round ratios to the baseline run just before it.
 */
async function versusAll(baseline, targets, path, rounds) {
  const b = [];
  const runs = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    b.push(await run(baseline, { url: `${baseline.url}${path}` }));
    const line = [`baseline ${fmt(b.at(-1).rps)}`];
    for (const [i, target] of targets.entries()) {
      runs[i].push(await run(target.child, { url: `${target.child.url}${path}` }));
      line.push(`${target.name} ${fmt(runs[i].at(-1).rps)} (${fmt(runs[i].at(-1).rps / b.at(-1).rps, 3)})`);
    }
    log(`    round ${round + 1}: ${line.join(', ')} req/s`);
  }
  return {
    baseline: summarize(b),
    targets: targets.map((target, i) => {
      const ratios = runs[i].map((m, j) => m.rps / b[j].rps);
      return { name: target.name, result: summarize(runs[i]), ratio: median(ratios), ratios };
    }),
  };
}

/**
 * The headline of GET /api/products: the service against the same-response ceiling and against the
 * feature-equivalent Fastify, each the median of per-round ratios (the three ran in the same rounds).
 */
const headlines = [];
function headline(level, service, ceiling, fastify, koaRouter) {
  const per = (a, b) => median(a.ratios.map((r, i) => r / b.ratios[i]));
  const ofKoa = koaRouter === undefined ? '' : `, ${fmt(per(service, koaRouter), 2)} of the Koa + @koa/router same-response ceiling`;
  headlines.push(`GET /api/products at ${level}: the service is ${fmt(per(service, ceiling), 2)} of the same-response node:http ceiling${ofKoa} and ${fmt(per(service, fastify), 2)}× the feature-equivalent Fastify (medians of per-round ratios)`);
  log(`  ${headlines.at(-1)}`);
}

async function versus(baseline, service, path, rounds) {
  const { baseline: b, targets } = await versusAll(baseline, [{ name: 'service', child: service }], path, rounds);
  return { baseline: b, service: targets[0].result, ratio: targets[0].ratio, ratios: targets[0].ratios };
}

/**
 * Alternates runs of several requests on one target, round after round: the medians of each, and
 * the median of each one's per-round ratios to the request at index `of` (default the first).
 */
async function alternate(target, requests, rounds) {
  const runs = requests.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const line = [];
    for (const [i, r] of requests.entries()) {
      runs[i].push(await run(target, { url: `${target.url}${r.path}`, headers: r.headers ?? {} }));
      const of = r.of ?? 0;
      line.push(`${r.name} ${fmt(runs[i].at(-1).rps)}${i === of ? '' : ` (${fmt(runs[i].at(-1).rps / runs[of].at(-1).rps, 3)})`}`);
    }
    log(`    round ${round + 1}: ${line.join(', ')} req/s`);
  }
  return requests.map((r, i) => {
    const ratios = runs[i].map((m, j) => m.rps / runs[r.of ?? 0][j].rps);
    // The same ratio in CPU time per request (reference / this): it moves less with the neighbours.
    const cpuRatios = runs[i].map((m, j) => runs[r.of ?? 0][j].cpu / m.cpu);
    return { name: r.name, result: summarize(runs[i]), ratio: median(ratios), ratios, cpuRatio: median(cpuRatios) };
  });
}

/** A fresh service with a product to order, logged-in customers (ids and tokens) and the kitchen's token. */
async function kitchenService() {
  const svc = await child('service.mjs', SERVICE_ENV);
  const { body } = await json(`${svc.url}/api/products`);
  const productId = body.products.find((p) => p.available).product_id;
  const customers = [];
  for (const [email, password] of [['alice@example.com', 'alice-password'], ['bob@example.com', 'bob-password']]) {
    const token = await login(svc.url, email, password);
    customers.push({ token, id: (await json(`${svc.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).body.customer_id });
  }
  const staff = { authorization: `Bearer ${await login(svc.url, 'kitchen@example.com', 'kitchen-password')}` };
  const total = async (status) => (await json(`${svc.url}/api/staff/orders?status=${status}&limit=1`, { headers: staff })).body.meta.total;
  return { svc, productId, customers, staff, total };
}

/**
 * Customers placing and polling orders while the kitchen works the queue, all at once, from the
 * load client's process; then the store's count per status against what the answers said.
 */
async function kitchen() {
  const { svc, productId, customers, staff, total } = await kitchenService();
  log(`kitchen mix: ${KITCHEN.placers} clients placing orders, ${KITCHEN.pollers} polling them (If-None-Match), ${KITCHEN.staff} kitchen screens moving the oldest open orders (If-Match), ${KITCHEN.duration} s after ${KITCHEN.warmup} s of warm-up`);
  let cpuBefore;
  const cpuTimer = setTimeout(() => svc.call('cpu').then((cpu) => (cpuBefore = cpu)), KITCHEN.warmup * 1000);
  const { kinds, totals, cpuSeconds, seconds } = await runLoadChild(
    'kitchen-load.mjs',
    { base: svc.url, ...KITCHEN, customers: customers.map((c) => c.token), staffToken: staff.authorization.slice('Bearer '.length), productId },
    (KITCHEN.warmup + KITCHEN.duration + 30) * 1000,
  );
  clearTimeout(cpuTimer);
  const cpuAfter = await svc.call('cpu');
  const what = {
    place: `POST /api/orders (${KITCHEN.placers} clients)`,
    poll: `GET /api/orders/{order_id}, If-None-Match (${KITCHEN.pollers} clients)`,
    queue: `GET /api/staff/orders?limit=10 (${KITCHEN.staff} screens)`,
    move: 'POST /api/staff/orders/{order_id}/status, If-Match (same screens)',
  };
  let answered = 0;
  for (const [kind, k] of Object.entries(kinds)) {
    answered += k.answered;
    const bad = k.errors + k.unexpected;
    row(`kitchen mix: ${what[kind]}`, { rps: k.rps, p50: k.p50, p99: k.p99, bad });
  }
  const counts = Object.entries(kinds)
    .map(([kind, k]) => `${kind} ${Object.entries(k.statuses).map(([status, n]) => `${status}×${fmt(n)}`).join(' ')}${k.errors > 0 ? ` errors×${k.errors}` : ''} (max ${fmt(k.max, 1)} ms)`)
    .join('; ');
  const cpu = cpuBefore === undefined ? undefined : (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / answered;
  notes.push(`kitchen mix, statuses answered in ${KITCHEN.duration} s (409/412 are the kitchen screens' lost races, expected): ${counts}; ${fmt(answered / KITCHEN.duration)} answers/s in all, service ${fmt(cpu, 1)} µs CPU per answer; the load client (one Node process) used ${fmt((100 * cpuSeconds) / seconds)} % of a core`);
  // Every order is in exactly one status; each successful move took one out of the status before.
  const m = totals.moves;
  const expected = { placed: totals.placed - m.accepted, accepted: m.accepted - m.preparing, preparing: m.preparing - m.ready, ready: m.ready - m.completed, completed: m.completed };
  const stored = {};
  for (const status of Object.keys(expected)) stored[status] = await total(status);
  const same = Object.keys(expected).every((status) => stored[status] === expected[status]);
  notes.push(`kitchen mix, after the run (warm-up included): ${fmt(totals.placed)} orders placed, moves ${Object.entries(m).map(([s, n]) => `${s} ${fmt(n)}`).join(', ')}; the store holds ${Object.entries(stored).map(([s, n]) => `${s} ${fmt(n)}`).join(', ')}: ${same ? 'exactly what the answers said (nothing lost, nothing applied twice)' : `MISMATCH, the answers said ${JSON.stringify(expected)}`}`);
  await svc.stop();
}

/** The staff queue over a million orders in several statuses: page 1 against a deep page. */
async function queue() {
  const { svc, productId, customers, staff, total } = await kitchenService();
  const before = await svc.call('memory');
  log(`staff queue: seeding ${fmt(QUEUE_ORDERS)} orders through the domain (${JSON.stringify(QUEUE_MIX)} of 20)`);
  const seeded = await svc.call('seed-orders', { customerIds: customers.map((c) => c.id), productId, count: QUEUE_ORDERS, mix: QUEUE_MIX });
  const placed = await total('placed');
  const open = (await json(`${svc.url}/api/staff/orders?limit=1`, { headers: staff })).body.meta.total;
  if (placed !== seeded.counts.placed) throw new Error(`queue: ${placed} placed orders listed, ${seeded.counts.placed} seeded`);
  // Page 1 and the deep page alternated (the first runs after seeding also meet its garbage).
  const pages = [
    ['placed', 'status=placed&', 1, 0],
    ['placed', 'status=placed&', QUEUE_DEEP_PAGE, 0],
    ['open', '', 1, 2],
    ['open', '', QUEUE_DEEP_PAGE, 2],
  ];
  log(`staff queue: page 1 and page ${QUEUE_DEEP_PAGE} (limit 100), status=placed and the default filter, alternated`);
  const results = await alternate(
    svc,
    pages.map(([name, query, page, of]) => ({ name: `${name} p${page}`, path: `/api/staff/orders?${query}page=${page}&limit=100`, headers: staff, of })),
    QUEUE_ROUNDS,
  );
  for (const [i, [name, query, page]] of pages.entries()) {
    const label = `GET /api/staff/orders?${query}page=${page}&limit=100 (${fmt(name === 'placed' ? placed : open)} ${name === 'placed' ? 'placed' : 'open, the default filter'})`;
    if (page === 1) row(label, results[i].result);
    else row(label, results[i].result, results[i].ratio, 'page 1');
  }
  const after = await svc.call('memory');
  notes.push(
    `queue: ${fmt(QUEUE_ORDERS)} orders of ${customers.length} customers placed through the domain and ${fmt(seeded.moves)} kitchen moves (MoveOrder) in ${fmt(seeded.ms / 1000, 1)} s (the moves ${fmt(seeded.moveMs / 1000, 1)} s of it), ending ${Object.entries(seeded.counts).map(([s, n]) => `${s} ${fmt(n)}`).join(', ')}; service RSS ${mib(before.rss)} MiB before, ${mib(seeded.rss)} MiB after seeding (heap ${mib(seeded.heapUsed)} MiB), ${mib(after.rss)} MiB after the queue runs`,
  );
  await svc.stop();
}

const began = performance.now();
const loadBefore = os.loadavg();
const uptimeBefore = execSync('uptime').toString().trim();
log(`storefront bench: nproc ${execSync('nproc').toString().trim()}, node ${process.version}, ${generator} ${CONNECTIONS} connections, ${DURATION} s per run after 1 s of warm-up`);
log(`uptime before: ${uptimeBefore}`);

let streams;
try {
  // 10,000 live order streams on a service of its own, first: nothing else is running yet (bench/streams.mjs).
  if (wanted('streams')) {
    streams = await streamsScenario({ child, serviceEnv: SERVICE_ENV, log });
    verdicts.push(...streams.verdicts);
    notes.push(...streams.notes);
  }
  const service = await child('service.mjs', SERVICE_ENV);
  const base = service.url;
  const products = await fetch(`${base}/api/products`);
  const productsBody = Buffer.from(await products.arrayBuffer());
  const productsType = products.headers.get('content-type');
  const productId = JSON.parse(productsBody.toString()).products.find((p) => p.available).product_id;
  const bodyFile = join(tmp, 'products.json');
  writeFileSync(bodyFile, productsBody);
  const bodyEnv = { PATH: process.env.PATH, BASELINE_BODY_FILE: bodyFile, BASELINE_CONTENT_TYPE: productsType };
  const baseline = await child('baseline.mjs', bodyEnv);

  let productsRps;
  if (wanted('products')) {
    // The service's own answer headers, for the same-response ceiling (Date and the connection
    // headers are Node's own; Content-Length is set from the body).
    const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    const headers = [...products.headers].filter(([name]) => !own.has(name));
    const ceilingEnv = { ...bodyEnv, BASELINE_KIND: 'ceiling', BASELINE_HEADERS: JSON.stringify(headers) };
    const { routeCount, ...koaRouterCeilingEnv } = await koaRouterEnv(service, tmp, bodyEnv);
    log(`GET /api/products (${productsBody.length} B, ${productsType}) against the node:http baseline, alternated, with the same-response ceilings (node:http; Koa + @koa/router with the service's ${routeCount} routes), bare Koa, Fastify and a feature-equivalent Fastify`);
    const ceiling = await child('baseline.mjs', ceilingEnv);
    const koaRouter = await child('baseline.mjs', koaRouterCeilingEnv);
    const koa = await child('baseline.mjs', { ...bodyEnv, BASELINE_KIND: 'koa' });
    const fastify = await child('baseline.mjs', { ...bodyEnv, BASELINE_KIND: 'fastify' });
    const featured = await child('baseline.mjs', { ...bodyEnv, BASELINE_KIND: 'fastify-features', LOG_LEVEL: 'info' });
    const all = await versusAll(
      baseline,
      [
        { name: 'service', child: service },
        { name: 'ceiling', child: ceiling },
        { name: 'koa-router ceiling', child: koaRouter },
        { name: 'fastify-features', child: featured },
        { name: 'koa', child: koa },
        { name: 'fastify', child: fastify },
      ],
      '/api/products',
      ROUNDS,
    );
    await Promise.all([koa.stop(), fastify.stop(), featured.stop(), koaRouter.stop()]);
    const [shipped, same, sameKoa, peerFeatured, bareKoa, peer] = all.targets;
    productsRps = shipped.result.rps;
    row('node:http baseline, same body and type', all.baseline);
    row('GET /api/products, LOG_LEVEL=info → /dev/null', shipped.result, shipped.ratio, 'baseline');
    row('ceiling: node:http, same body and same headers', same.result, same.ratio, 'baseline');
    row(`ceiling of the owner's stack: Koa + @koa/router, ${routeCount} routes, same body and headers`, sameKoa.result, sameKoa.ratio, 'baseline');
    row('peer: Fastify with the same features, info → /dev/null', peerFeatured.result, peerFeatured.ratio, 'baseline');
    row('peer: bare Koa, same body and type', bareKoa.result, bareKoa.ratio, 'baseline');
    row('peer: minimal Fastify, same body and type', peer.result, peer.ratio, 'baseline');
    headline('info', shipped, same, peerFeatured, sameKoa);
    for (const target of all.targets) notes.push(`GET /api/products, ${target.name}: ratio to node:http per round ${target.ratios.map((r) => fmt(r, 2)).join(', ')}`);

    const silent = await child('service.mjs', { ...SERVICE_ENV, LOG_LEVEL: 'silent' });
    const featuredSilent = await child('baseline.mjs', { ...bodyEnv, BASELINE_KIND: 'fastify-features', LOG_LEVEL: 'silent' });
    const quiet = await versusAll(
      baseline,
      [
        { name: 'service', child: silent },
        { name: 'ceiling', child: ceiling },
        { name: 'fastify-features', child: featuredSilent },
      ],
      '/api/products',
      Math.max(1, ROUNDS - 2),
    );
    row('GET /api/products, LOG_LEVEL=silent', quiet.targets[0].result, quiet.targets[0].ratio, 'baseline');
    row('peer: Fastify with the same features, silent', quiet.targets[2].result, quiet.targets[2].ratio, 'baseline');
    headline('silent', ...quiet.targets);
    await Promise.all([silent.stop(), featuredSilent.stop(), ceiling.stop()]);

    const defaults = await child('service.mjs', START_DEFAULTS_ENV, { stdout: 'pipe' });
    const shippedDefaults = await versus(baseline, defaults, '/api/products', Math.max(1, ROUNDS - 2));
    row('GET /api/products, `pnpm start` defaults (info → pipe)', shippedDefaults.service, shippedDefaults.ratio, 'baseline');
    await defaults.stop();
  } else {
    productsRps = (await run(service, { url: `${base}/api/products` })).rps;
  }

  // What checking requests against packages/adapters-http/openapi.yaml costs, and the Koa + @koa/router ceiling (bench/schema.mjs).
  if (wanted('schema')) {
    const schema = await schemaScenario({ child, run, row, log, serviceEnv: SERVICE_ENV, bodyEnv, tmp, rounds: ROUNDS });
    verdicts.push(...schema.verdicts);
    notes.push(...schema.notes);
  }

  // What METRICS_PORT costs GET /api/products, off and on alternated (bench/metrics.mjs).
  if (wanted('metrics')) {
    const metrics = await metricsScenario({ child, run, row, log, fmt, serviceEnv: SERVICE_ENV, rounds: ROUNDS });
    verdicts.push(...metrics.verdicts);
    notes.push(...metrics.notes);
  }

  if (wanted('search')) {
    const q = encodeURIComponent(SEARCH_QUERY);
    const demo = await run(service, { url: `${base}/api/search?q=${q}` });
    row(`GET /api/search?q=${SEARCH_QUERY}, demo menu (${(await json(`${base}/api/search?q=${q}`)).body.meta.total} hits)`, demo);

    const menuFile = join(tmp, 'menu.json');
    writeMenuFile(MENU_SIZE, menuFile);
    const big = await child('service.mjs', { ...SERVICE_ENV, STOREFRONT_MENU_FILE: menuFile });
    const { body } = await json(`${big.url}/api/search?q=${q}`);
    const m = await run(big, { url: `${big.url}/api/search?q=${q}` });
    row(`GET /api/search?q=${SEARCH_QUERY}, ${fmt(MENU_SIZE)} dishes (${fmt(body.meta.total)} hits)`, m, m.rps / demo.rps, 'demo menu');
    notes.push(
      `${fmt(MENU_SIZE)} dishes: service start-up (read, validate, import, build the snapshot and index) ${fmt(big.startMs)} ms; first search after start ${fmt(big.firstReadMs, 1)} ms`,
    );
    const build = await big.call('index-build', { repeat: 3 });
    notes.push(`${fmt(MENU_SIZE)} dishes: MenuSearchIndex.build alone ${build.map((ms) => fmt(ms)).join(', ')} ms (3 builds, in the service process)`);
    await big.stop();
  }

  // Typo-tolerant search over HTTP, exact and typo'd, demo menu against 100k alternated (bench/search-typo.mjs).
  if (wanted('typo')) {
    const typo = await typoScenario({ service, child, run, row, log, serviceEnv: SERVICE_ENV, tmp, rounds: ROUNDS });
    verdicts.push(...typo.verdicts);
    notes.push(...typo.notes);
  }

  if (wanted('auth') || wanted('orders')) {
    const token = await login(base, 'alice@example.com', 'alice-password');
    const auth = { authorization: `Bearer ${token}` };
    const order = {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ product_id: productId, quantity: 2 }] }),
    };
    if (wanted('orders')) {
      const first = await run(service, { url: `${base}/api/orders`, ...order });
      row('POST /api/orders (memory store)', first, first.rps / productsRps, '/api/products');
      const again = await run(service, { url: `${base}/api/orders`, ...order });
      row(`POST /api/orders again (${fmt(first.requests)}+ orders stored)`, again, again.rps / productsRps, '/api/products');
    }
    if (wanted('auth')) {
      const me = await run(service, { url: `${base}/api/me`, headers: auth });
      row('GET /api/me (Bearer)', me, me.rps / productsRps, '/api/products');
      const list = await run(service, { url: `${base}/api/orders?limit=20`, headers: auth });
      row('GET /api/orders?limit=20 (Bearer)', list, list.rps / productsRps, '/api/products');
    }
  }

  // Placement on PostgreSQL against the memory store, alternated (bench/postgres-orders.mjs).
  if (wanted('pgorders')) {
    const pg = await postgresOrdersScenario({ child, run, row, log, fmt, serviceEnv: SERVICE_ENV, rounds: ROUNDS });
    notes.push(...pg.notes);
  }

  // pgbench TPC-B-like against placement on PostgreSQL; memory POST against GET (bench/placement.mjs).
  if (wanted('placement')) {
    const placement = await placementScenario({ child, run, row, log, fmt, serviceEnv: SERVICE_ENV, rounds: ROUNDS, duration: DURATION });
    verdicts.push(...placement.verdicts);
    notes.push(...placement.notes);
  }

  // Webhooks: 10,000 events to 10 endpoints, and the cost on placement (bench/webhooks.mjs).
  // Placement with card payments against without, on the Stripe stand-in (bench/payments.mjs).
  if (wanted('payments')) {
    const payments = await paymentsScenario({ child, run, row, log, fmt, serviceEnv: SERVICE_ENV, rounds: ROUNDS, duration: DURATION });
    verdicts.push(...payments.verdicts);
    notes.push(...payments.notes);
  }

  if (wanted('webhooks')) {
    const webhooks = await webhooksScenario({ child, run, row, log, fmt, serviceEnv: SERVICE_ENV, rounds: ROUNDS });
    verdicts.push(...webhooks.verdicts);
    notes.push(...webhooks.notes);
  }

  if (wanted('orderreads')) {
    // A customer's list and one order, each alternated with GET /api/products in the same rounds.
    const token = await login(base, 'alice@example.com', 'alice-password');
    const auth = { authorization: `Bearer ${token}` };
    const place = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }] }) };
    for (let i = 0; i < READ_ORDERS; i++) await json(`${base}/api/orders`, place);
    const listed = (await json(`${base}/api/orders?limit=20`, { headers: auth })).body;
    if (listed.orders.length !== 20) throw new Error(`orderreads: GET /api/orders?limit=20 listed ${listed.orders.length} orders`);
    const orderId = listed.orders[0].order_id;
    const detail = await json(`${base}/api/orders/${orderId}`, { headers: auth });
    log(`orders read by their owner (${fmt(listed.meta.total)} orders; one order ${detail.text.length} B, ETag ${detail.headers.get('etag')}) against GET /api/products, alternated`);
    const reads = await alternate(
      service,
      [
        { name: '/api/products', path: '/api/products' },
        { name: 'list', path: '/api/orders?limit=20', headers: auth },
        { name: 'detail', path: `/api/orders/${orderId}`, headers: auth },
      ],
      ROUNDS,
    );
    const [, list, one] = reads;
    row('GET /api/products (orderreads rounds)', reads[0].result);
    row(`GET /api/orders?limit=20 (owner, ${fmt(listed.meta.total)} orders)`, list.result, list.ratio, '/api/products');
    row('GET /api/orders/{order_id} (owner, 200 with ETag)', one.result, one.ratio, '/api/products');
    for (const [r, key, what] of [[list, 'list', 'GET /api/orders?limit=20'], [one, 'detail', 'GET /api/orders/{order_id}']]) {
      verdicts.push(`${what} ≥ ${READ_TARGETS[key]} of GET /api/products: **${r.ratio >= READ_TARGETS[key] ? 'met' : 'not met'}** (${fmt(r.ratio, 2)}, median of ${r.ratios.length} alternated rounds: ${r.ratios.map((x) => fmt(x, 2)).join(', ')}; in CPU µs per request, products' over its own: ${fmt(r.cpuRatio, 2)})`);
      log(`  target: ${verdicts.at(-1)}`);
    }
  }

  // Slots of the week ahead, placement with a slot capacity against without, zone lookups (bench/fulfilment.mjs).
  if (wanted('fulfilment')) {
    log('fulfilment: GET /api/store/slots per day of the week ahead; placement with and without a slot capacity, alternated; zone lookups in-process');
    const fulfilment = await fulfilmentScenario({ service, child, run, row, log, serviceEnv: SERVICE_ENV, rounds: ROUNDS });
    verdicts.push(...fulfilment.verdicts);
    notes.push(...fulfilment.notes);
  }

  if (wanted('logins')) {
    // `pnpm start` defaults: scrypt logN 17 (128 MiB and a few hundred ms of CPU per hash), 4 at once.
    const svc = await child('service.mjs', START_DEFAULTS_ENV, { stdout: 'pipe' });
    await svc.call('eld-start', { resolution: ELD_RESOLUTION_MS });
    const readsAlone = await run(svc, { url: `${svc.url}/api/products`, connections: 4 });
    const alone = await svc.call('eld-stop');
    row('GET /api/products, 4 connections, nothing else', readsAlone);

    await svc.call('eld-start', { resolution: ELD_RESOLUTION_MS });
    const loginLoad = measure({
      url: `${svc.url}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password: 'alice-password' }),
      connections: 8,
      warmup: 0.5,
      duration: DURATION + 2,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const reads = await run(svc, { url: `${svc.url}/api/products`, connections: 4 });
    const logins = await loginLoad;
    const busy = await svc.call('eld-stop');
    row('POST /api/auth/login flat out, 8 connections (scrypt logN 17)', logins);
    row('GET /api/products meanwhile, 4 connections', reads);
    const delay = (h) => `p50 ${fmt(h.p50, 2)} ms, p99 ${fmt(h.p99, 2)} ms, max ${fmt(h.max, 1)} ms`;
    notes.push(`event-loop delay in the service (monitorEventLoopDelay, ${ELD_RESOLUTION_MS} ms timer, the timer's own interval taken off): reads alone ${delay(alone)}; reads with logins flat out ${delay(busy)}`);
    await svc.stop();
  }

  // Each in a service of its own; before `paging`, so that the main service does not hold its
  // million orders meanwhile (two seeded services at once would need about 1.1 GiB).
  if (wanted('kitchen')) await kitchen();
  if (wanted('queue')) await queue();

  if (wanted('paging')) {
    const token = await login(base, 'bob@example.com', 'bob-password');
    const auth = { authorization: `Bearer ${token}` };
    const me = (await json(`${base}/api/me`, { headers: auth })).body;
    const before = await service.call('memory');
    const seeded = await service.call('seed-orders', { customerId: me.customer_id, productId, count: PAGING_ORDERS });
    const first = await run(service, { url: `${base}/api/orders?page=1&limit=100`, headers: auth });
    row(`GET /api/orders?page=1&limit=100 (${fmt(PAGING_ORDERS)} orders)`, first);
    const deep = await run(service, { url: `${base}/api/orders?page=5000&limit=100`, headers: auth });
    row(`GET /api/orders?page=5000&limit=100 (${fmt(PAGING_ORDERS)} orders)`, deep, deep.rps / first.rps, 'page 1');
    const after = await service.call('memory');
    notes.push(
      `paging: ${fmt(PAGING_ORDERS)} orders of one customer placed through the domain in ${fmt(seeded.ms / 1000, 1)} s; service RSS ${mib(before.rss)} MiB before, ${mib(seeded.rss)} MiB after (heap ${mib(seeded.heapUsed)} MiB), ${mib(after.rss)} MiB after the paging runs`,
    );
  }
  await baseline.stop();
  await service.stop();
} finally {
  await cleanup();
}

// Typo-tolerant search in-process: build, memory, CPU per query (bench/search-typo.mjs, its own process).
let typoInProcess;
if (wanted('typo')) {
  log('typo-tolerant search in-process (bench/search-typo.mjs)');
  typoInProcess = execFileSync(process.execPath, ['--expose-gc', new URL('search-typo.mjs', import.meta.url).pathname], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5 * 60_000 });
}

// PostgreSQL inserts without HTTP, schema version 2 against the current one (bench/postgres-inserts.mjs, its own process).
let pginserts;
if (wanted('pginserts')) {
  log('PostgreSQL order inserts, schema version 2 against the current one, alternated (bench/postgres-inserts.mjs)');
  pginserts = execFileSync(process.execPath, [new URL('postgres-inserts.mjs', import.meta.url).pathname], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 5 * 60_000 });
}

// The JavaScript cost alone, without the kernel or a load generator (bench/inprocess.mjs).
let jscost;
if (wanted('jscost')) {
  log('JavaScript cost of GET /api/products in-process (bench/inprocess.mjs), alternated');
  jscost = execFileSync(process.execPath, [new URL('inprocess.mjs', import.meta.url).pathname], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

const loadAfter = os.loadavg();
log(`uptime after: ${execSync('uptime').toString().trim()}`);
console.log('');
console.log('| scenario | req/s | p50 ms | p99 ms | CPU µs/req | ratio |');
console.log('|---|---:|---:|---:|---:|---|');
for (const r of rows) {
  const ratio = r.ratio === undefined ? '' : `${fmt(r.ratio, 2)} of ${r.against}`;
  const bad = r.bad > 0 ? ` (${fmt(r.bad)} non-2xx!)` : '';
  console.log(`| ${r.scenario} | ${fmt(r.rps)}${bad} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.cpu, 1)} | ${ratio} |`);
}
console.log('');
if (streams !== undefined) console.log(`${streams.table.join('\n')}\n`);
for (const line of headlines) console.log(`- ${line}`);
if (headlines.length > 0) console.log('');
for (const line of verdicts) console.log(`- target: ${line}`);
if (verdicts.length > 0) console.log('');
if (typoInProcess !== undefined) console.log(`${typoInProcess.trim()}\n`);
if (jscost !== undefined) console.log(`${jscost.trim()}\n`);
if (pginserts !== undefined) console.log(`${pginserts.trim()}\n`);
for (const note of notes) console.log(`- ${note}`);
console.log(
  `- machine: nproc ${os.cpus().length}, node ${process.version}; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; ${fmt((performance.now() - began) / 1000)} s in all`,
);
process.exit(0);
