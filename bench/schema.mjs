/**
 * What checking requests against packages/adapters-http/openapi.yaml costs (issue 23 item 5), and the ceiling of the
 * owner's stack, for bench/run.mjs:
 *
 * - `serviceRoutes()`: the service's routes as @koa/router holds them (every operation of the
 *   document, plus the API reference's and the kitchen page's own), for the Koa + @koa/router
 *   ceiling (bench/baseline.mjs, BASELINE_KIND=koa-router);
 * - `schemaScenario`: GET /api/products and POST /api/orders (a customer's Bearer token and a fresh
 *   Idempotency-Key on every request, memory store) on three servers, alternated round after round
 *   in a rotating order: the service, the same service with the two operations' schema checks
 *   swapped for a pass-through (bench/service.mjs BENCH_UNCHECKED), and the Koa + @koa/router
 *   ceiling answering the service's bytes (JSON bodies read by koa-body). Ratios are medians of
 *   per-round ratios; CPU µs per request is given beside them (it moves less with the neighbours).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '../packages/adapters-http/dist/src/contract/document.js';
import { operationChecks } from '../packages/adapters-http/dist/src/contract/operations.js';
import { json, login } from './lib.mjs';
import { median, summarize } from './stats.mjs';

/** Served beside the document's operations (routes/docs.ts, routes/kitchen-page.ts), both on by default. */
const UNLISTED = ['/docs', '/docs/:file', '/openapi.json', '/kitchen', '/kitchen/:file'];
/**
 * The cost of schema checking allowed (issue 23): 5 % on placement, nothing on the menu (taken as
 * under 1 % of the service's CPU per request: two identical servers differ by ±3 % over HTTP here).
 */
const TARGETS = { post: { ratio: 0.95, say: '≤ 5 %' }, get: { ratio: 0.99, say: 'nothing (< 1 %)' } };
/** Response headers that Node writes itself (Content-Length from the body). */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const fmt = (n, digits = 0) => (n === undefined || Number.isNaN(n) ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

export function serviceRoutes() {
  const operations = [...operationChecks(openApiDocument()).values()].map(({ method, path }) => [method, path]);
  return [...operations, ...UNLISTED.map((path) => ['GET', path])];
}

/**
 * The checks alone, in this process (no sockets, no neighbours' load in the way): µs per call of the
 * compiled check of each operation on the request the scenario sends, after a warm-up.
 */
function checkCost(body, calls = 200_000) {
  const checks = operationChecks(openApiDocument());
  const micros = {};
  for (const [kind, id, text] of [['post', 'placeOrder', body], ['get', 'listProducts', undefined]]) {
    const { check } = checks.get(id);
    // A parsed body per call, as koa-body hands each request its own; the parse is timed apart and taken off.
    const time = (withCheck) => {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) {
        const parsed = text === undefined ? undefined : JSON.parse(text);
        if (withCheck) check({ params: {}, query: {}, body: parsed });
      }
      return performance.now() - t0;
    };
    time(true);
    // The lower of two timings: the machine's neighbours only ever add.
    micros[kind] = Math.max(0, Math.min(time(true) - time(false), time(true) - time(false)) * 1000) / calls;
  }
  return micros;
}

/** The service's answer as the ceiling replays it: status, its own headers, the body's bytes. */
async function sample(url, init = {}) {
  // Once more on a fresh connection if a kept-alive one was closed under the request.
  const response = await fetch(url, init).catch(() => fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } }));
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body}`);
  const headers = [...response.headers].filter(([name]) => !NODE_HEADERS.has(name));
  return { status: response.status, headers, body: body.toString('base64') };
}

/** The ceiling's environment: the service's routes and its answers on the routes measured. */
export async function koaRouterEnv(service, tmp, bodyEnv, order) {
  const routes = serviceRoutes();
  for (const path of UNLISTED.filter((p) => !p.includes(':'))) {
    const response = await fetch(`${service.url}${path}`);
    await response.arrayBuffer();
    const { status } = response;
    if (status !== 200) throw new Error(`the service answers ${path} with ${status}: the ceiling's routes would not be its routes`);
  }
  const answers = { 'GET /api/products': await sample(`${service.url}/api/products`) };
  if (order !== undefined) {
    answers['POST /api/orders'] = await sample(`${service.url}/api/orders`, { ...order, headers: { ...order.headers, 'idempotency-key': `sample-${Date.now()}` } });
  }
  const file = join(tmp, `answers-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(answers));
  return { ...bodyEnv, BASELINE_KIND: 'koa-router', BASELINE_ROUTES: JSON.stringify(routes), BASELINE_ANSWERS_FILE: file, routeCount: routes.length };
}

/** A customer's placement of one dish, as a request (no Idempotency-Key: the load generator adds a fresh one). */
async function placement(url) {
  const token = await login(url, 'alice@example.com', 'alice-password');
  const dish = (await json(`${url}/api/products`)).body.products.find((p) => p.available && p.option_groups.every((g) => g.min === 0));
  return { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ product_id: dish.product_id, quantity: 2 }] }) };
}

export async function schemaScenario({ child, run, row, log, serviceEnv, bodyEnv, tmp, rounds }) {
  const checked = await child('service.mjs', serviceEnv);
  const unchecked = await child('service.mjs', { ...serviceEnv, BENCH_UNCHECKED: 'placeOrder,listProducts' });
  const order = await placement(checked.url);
  const { routeCount, ...ceilingEnv } = await koaRouterEnv(checked, tmp, bodyEnv, order);
  const ceiling = await child('baseline.mjs', ceilingEnv);
  const servers = [
    { name: 'service', child: checked, order },
    { name: 'service, schema checks bypassed', child: unchecked, order: await placement(unchecked.url) },
    { name: `Koa + @koa/router ceiling (${routeCount} routes, same bytes)`, child: ceiling, order },
  ];
  log(`schema: GET /api/products and POST /api/orders (Bearer, fresh Idempotency-Key per request, memory store) on the service, the service without schema checks and the Koa + @koa/router ceiling; ${rounds} rounds, order rotated`);
  const kinds = {
    get: { what: 'GET /api/products', request: () => ({}), path: '/api/products' },
    post: { what: 'POST /api/orders (Idempotency-Key)', request: (s) => ({ ...s.order, uniqueHeader: 'Idempotency-Key' }), path: '/api/orders' },
  };
  const runs = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, servers.map(() => [])]));
  // A round that is not counted: the first runs on a fresh process also pay for its JIT warming up.
  for (const k of Object.values(kinds)) for (const s of servers) await run(s.child, { url: `${s.child.url}${k.path}`, ...k.request(s) });
  for (let round = 0; round < rounds; round++) {
    for (const [kind, k] of Object.entries(kinds)) {
      const line = [];
      for (let j = 0; j < servers.length; j++) {
        const i = (round + j) % servers.length;
        const s = servers[i];
        runs[kind][i].push(await run(s.child, { url: `${s.child.url}${k.path}`, ...k.request(s) }));
      }
      for (const [i, s] of servers.entries()) line.push(`${s.name.split(' (')[0]} ${fmt(runs[kind][i].at(-1).rps)}`);
      log(`    round ${round + 1}, ${k.what}: ${line.join(', ')} req/s`);
    }
  }
  const skipped = await unchecked.call('unchecked');
  const alone = checkCost(order.body);
  const notes = [];
  const verdicts = [];
  for (const [kind, k] of Object.entries(kinds)) {
    const [on, off, koa] = runs[kind];
    const ratios = on.map((m, i) => m.rps / off[i].rps);
    const cpuRatios = on.map((m, i) => off[i].cpu / m.cpu);
    const ofKoa = on.map((m, i) => m.rps / koa[i].rps);
    row(`${k.what}, service (schema ratios)`, summarize(on), median(ratios), 'the service without schema checks');
    row(`${k.what}, service without schema checks`, summarize(off), median(off.map((m, i) => m.rps / koa[i].rps)), 'the Koa ceiling');
    row(`${k.what}, ${servers[2].name}`, summarize(koa));
    // Two measures: the check's own time against the service's CPU per request (steady whatever
    // the neighbours do), and the two services side by side over HTTP (the whole effect, noisy).
    const share = alone[kind] / summarize(on).cpu;
    verdicts.push(
      `${k.what}: schema checking ${fmt(alone[kind], 2)} µs in-process of the service's ${fmt(summarize(on).cpu, 0)} µs CPU per request (${fmt(100 * share, 2)} %), target ${TARGETS[kind].say}: **${1 - share >= TARGETS[kind].ratio ? 'met' : 'not met'}**; ` +
        `over HTTP, service / service without checks: ${fmt(median(ratios), 3)} (median of ${rounds} alternated rounds: ${ratios.map((r) => fmt(r, 3)).join(', ')}; in CPU µs per request, without over with: ${fmt(median(cpuRatios), 3)})`,
    );
    notes.push(`${k.what}: the service at ${fmt(median(ofKoa), 2)} of the Koa + @koa/router ceiling (per round ${ofKoa.map((r) => fmt(r, 2)).join(', ')})`);
    log(`  target: ${verdicts.at(-1)}`);
  }
  if (skipped === 0) throw new Error('schema: the bypass was never used: the comparison would be of two checked services');
  notes.push(`schema: ${fmt(skipped)} requests went through the bypass; every answer counted was a 2xx (else the rows say "non-2xx")`);
  await Promise.all(servers.map((s) => s.child.stop()));
  return { notes, verdicts };
}
