/**
 * The `webhooks` scenario of bench/run.mjs (issue 27, item 6), memory store, loopback only:
 *
 * 1. drain: 10 endpoints registered (receivers in a process of their own, bench/webhook-receivers.mjs),
 *    then BENCH_WEBHOOK_EVENTS (10,000) orders placed as fast as 16 connections go: each
 *    `order.placed` event goes to every endpoint (10 × the events in deliveries). Reported: the time
 *    from the first placement until the last delivery arrived, and the latency from each order
 *    change (the event's `timestamp`) to its receipt, p50/p99/max. Bounded: it gives up after
 *    DRAIN_LIMIT_MS and says how far it got.
 * 2. cost: POST /api/orders throughput while 10 endpoints drain a backlog, against a service without
 *    endpoints, alternated round after round. Before each round both services get the same
 *    BACKLOG_ORDERS (10,000) orders placed and accepted through the domain (service.mjs `seed-orders`): on
 *    the one with endpoints (subscribed to `order.status`) that is BACKLOG_ORDERS × 10 deliveries,
 *    sent while its placement is measured. It is let drain before the next round of the other, so
 *    that its sending never weighs on the run it is compared with. Target: ≥ 0.9.
 */
import { cannon, json, login } from './lib.mjs';
import { median, summarize } from './stats.mjs';

const ENDPOINTS = 10;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const DRAIN_LIMIT_MS = 5 * 60_000;
const POLL_MS = 200;
const BACKLOG_ORDERS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 10_000);
const OWNER = ['owner@example.com', 'owner-password'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A service with `urls` registered as webhook endpoints; its placement request and endpoint ids. */
async function serviceWith(child, env, urls, events = ['order.placed']) {
  const svc = await child('service.mjs', env);
  const admin = { authorization: `Bearer ${await login(svc.url, ...OWNER)}`, 'content-type': 'application/json' };
  const ids = [];
  for (const url of urls) {
    // json() throws on anything but a 2xx.
    const created = await json(`${svc.url}/api/admin/webhooks`, { method: 'POST', headers: admin, body: JSON.stringify({ url, events }) });
    ids.push(created.body.webhook_id);
  }
  const token = await login(svc.url, 'alice@example.com', 'alice-password');
  const menu = (await json(`${svc.url}/api/products`)).body.products;
  const dish = menu.find((p) => p.available && p.option_groups.every((g) => g.min === 0));
  const request = {
    url: `${svc.url}/api/orders`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ product_id: dish.product_id, quantity: 1 }] }),
  };
  const customerId = (await json(`${svc.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).body.customer_id;
  /** BACKLOG_ORDERS orders placed and accepted through the domain: as many `order.status` events. */
  const backlog = () => svc.call('seed-orders', { customerId, productId: dish.product_id, count: BACKLOG_ORDERS, mix: { accepted: 1 } });
  const pending = async () => {
    let total = 0;
    for (const id of ids) total += (await json(`${svc.url}/api/admin/webhooks/${id}/deliveries?status=pending&limit=1`, { headers: admin })).body.meta.total;
    return total;
  };
  return { svc, request, pending, backlog };
}

export async function webhooksScenario({ child, run, row, log, fmt, serviceEnv, rounds }) {
  const env = { ...serviceEnv, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true', STOREFRONT_DEMO_DATA: 'true' };
  const receivers = await child('webhook-receivers.mjs', { PATH: process.env.PATH, WEBHOOK_RECEIVERS: String(ENDPOINTS) });
  const notes = [];
  const verdicts = [];

  // 1. Drain.
  const drain = await serviceWith(child, env, receivers.urls);
  const expected = EVENTS * ENDPOINTS;
  log(`webhooks: ${fmt(EVENTS)} orders placed (16 connections) with ${ENDPOINTS} endpoints registered: ${fmt(expected)} deliveries`);
  await receivers.call('reset');
  const started = Date.now();
  const placed = await cannon({ ...drain.request, amount: EVENTS, connections: 16 });
  const placedMs = Date.now() - started;
  let stats = await receivers.call('stats');
  while (stats.received < expected && Date.now() - started < DRAIN_LIMIT_MS) {
    await sleep(POLL_MS);
    stats = await receivers.call('stats');
  }
  const drainMs = stats.lastAt - started;
  const complete = stats.received >= expected;
  notes.push(
    `webhooks drain: ${fmt(placed['2xx'])} orders placed in ${fmt(placedMs / 1000, 1)} s (${fmt(placed['2xx'] / (placedMs / 1000))}/s) with ${ENDPOINTS} endpoints; ` +
      `${fmt(stats.received)} of ${fmt(expected)} deliveries received${complete ? `, all within ${fmt(drainMs / 1000, 1)} s of the first placement (${fmt(stats.received / (drainMs / 1000))} deliveries/s)` : ` when the bench gave up after ${DRAIN_LIMIT_MS / 1000} s`}; ` +
      `order change → receipt p50 ${fmt(stats.p50)} ms, p99 ${fmt(stats.p99)} ms, max ${fmt(stats.max)} ms; ${stats.duplicates} received twice`,
  );
  log(`    ${notes.at(-1)}`);
  await drain.svc.stop();

  // 2. Placement cost while a backlog drains, alternated with a service without endpoints.
  const plain = await serviceWith(child, env, []);
  const hooked = await serviceWith(child, env, receivers.urls, ['order.status']);
  log(`webhooks: POST /api/orders while ${ENDPOINTS} endpoints drain ${fmt(BACKLOG_ORDERS)} order.status events (${fmt(BACKLOG_ORDERS * ENDPOINTS)} deliveries), against no endpoints, alternated`);
  const runs = { plain: [], hooked: [] };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const waitStart = Date.now();
    while ((await hooked.pending()) > 0 && Date.now() - waitStart < DRAIN_LIMIT_MS) await sleep(POLL_MS);
    await plain.backlog();
    runs.plain.push(await run(plain.svc, plain.request));
    await receivers.call('reset');
    await hooked.backlog();
    runs.hooked.push(await run(hooked.svc, hooked.request));
    const during = await receivers.call('stats');
    ratios.push(runs.hooked.at(-1).rps / runs.plain.at(-1).rps);
    log(`    round ${round + 1}: without ${fmt(runs.plain.at(-1).rps)}, with ${fmt(runs.hooked.at(-1).rps)} req/s (${fmt(ratios.at(-1), 2)}); ${fmt(during.received)} deliveries received during the run, ${fmt(await hooked.pending())} pending after it`);
  }
  row('POST /api/orders, no webhook endpoint (webhooks rounds)', summarize(runs.plain));
  row(`POST /api/orders, ${ENDPOINTS} endpoints draining ${fmt(BACKLOG_ORDERS * ENDPOINTS)} deliveries meanwhile`, summarize(runs.hooked), median(ratios), 'without endpoints');
  const ratio = median(ratios);
  verdicts.push(`placement with ${ENDPOINTS} webhook endpoints delivering at ${fmt(ratio, 2)} of placement without (≥ 0.9 wanted): ${ratio >= 0.9 ? 'met' : 'NOT met'} (rounds ${ratios.map((r) => fmt(r, 2)).join(', ')})`);
  await plain.svc.stop();
  await hooked.svc.stop();
  await receivers.stop();
  return { notes, verdicts };
}
