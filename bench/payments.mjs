/**
 * The `payments` scenario of bench/run.mjs (issue 35): does placement with card payments on cost one
 * provider round trip more than without, and nothing else? In memory and on PostgreSQL, three
 * services side by side, alternated round after round (the machine is shared: load drifts):
 *
 * - `off`: STOREFRONT_PAYMENTS=none.
 * - `instant`: STOREFRONT_PAYMENTS=stripe with the gateway answering at once, without a request
 *   (BENCH_PAYMENT_GATEWAY=instant, bench/service.mjs): the payment path's own cost (the intent on
 *   the order, its indexes, the awaiting state, the answer's payment object) without the trip.
 * - `on`: STOREFRONT_PAYMENTS=stripe against the Stripe stand-in of packages/testing, in a process
 *   of its own (bench/stripe-stand-in.mjs).
 *
 * And the round trip alone (bench/stripe-calls.mjs: the service's gateway on the `stripe` SDK
 * opening intents in a loop, at the same concurrency). Measured: service CPU per placement with the
 * stand-in answering at once; p99 with it answering after 50 ms; the stand-in's requests per stored
 * order. The payment sweeper is off in the bench (it reads intents two minutes after placement).
 *
 * Each part ends by counting: stored orders against the 201s, and the stand-in's requests against
 * the orders stored with payments on (one intent each: none lost, none doubled, nothing else asked).
 */
import { generateSigningKey } from '../packages/adapters-crypto/dist/src/index.js';
import { createTestDatabase } from '../packages/testing/dist/src/postgres-test-database.js';
import { countStored, placement } from './placement.mjs';
import { median, summarize } from './stats.mjs';

const PROVIDER_LATENCY_MS = 50;
const CONCURRENCY = 16;
/** The payment path's own CPU (instant gateway against none) may differ from none by this share. */
const OWN_COST_SHARE = 0.1;

export async function paymentsScenario({ child, run, row, log, fmt, serviceEnv, rounds, duration }) {
  const notes = [];
  const verdicts = [];
  const standIn = await child('stripe-stand-in.mjs', {});
  const calls = await child('stripe-calls.mjs', {});
  const ctx = { standIn, calls, child, run, row, log, fmt, serviceEnv, rounds, duration, notes, verdicts };
  try {
    await part(ctx, 'memory', () => ({}), {});
    const dbs = await Promise.all(['off', 'instant', 'on'].map((name) => createTestDatabase(`storefront_bench_pay_${name}`)));
    try {
      const databases = { off: dbs[0], instant: dbs[1], on: dbs[2] };
      const storeEnv = (name) => ({ STOREFRONT_STORE: 'postgres', DATABASE_URL: databases[name].url, STOREFRONT_DEMO_DATA: 'true', TOKEN_SECRET_KEY: generateSigningKey() });
      await part(ctx, 'PostgreSQL', storeEnv, databases);
    } finally {
      await Promise.all(dbs.map((db) => db.drop()));
    }
  } finally {
    await Promise.all([standIn.stop(), calls.stop()]);
  }
  return { notes, verdicts };
}

/** `storeEnv(name)`: the store's environment of the service `name`; `databases[name]` its database, counted at the end (PostgreSQL). */
async function part({ standIn, calls, child, run, row, log, fmt, serviceEnv, rounds, duration, notes, verdicts }, store, storeEnv, databases) {
  const pay = { STOREFRONT_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: standIn.apiKey, STRIPE_WEBHOOK_SECRET: standIn.webhookSecret, STRIPE_API_BASE: standIn.url, BENCH_PAYMENT_SWEEPER: 'off' };
  const services = {
    off: await child('service.mjs', { ...serviceEnv, ...storeEnv('off') }),
    instant: await child('service.mjs', { ...serviceEnv, ...storeEnv('instant'), ...pay, BENCH_PAYMENT_GATEWAY: 'instant' }),
    on: await child('service.mjs', { ...serviceEnv, ...storeEnv('on'), ...pay }),
  };
  const before = await standIn.call('requests');
  try {
    const placements = {};
    for (const [name, svc] of Object.entries(services)) placements[name] = await placement(svc.url);
    log(`payments (${store}): POST /api/orders without payments, with an instant gateway, with the stand-in; one gateway call alone; the stand-in at once, then after ${PROVIDER_LATENCY_MS} ms`);
    const cpu = { off: [], instant: [], on: [], call: [] };
    const slow = { off: [], on: [], call: [] };
    let opened = 0;
    const authorize = async () => {
      const result = await calls.call('authorize', { url: standIn.url, apiKey: standIn.apiKey, concurrency: CONCURRENCY, seconds: duration });
      opened += result.opened;
      return result;
    };
    await standIn.call('latency', { ms: 0 });
    for (let round = 0; round < rounds; round++) {
      for (const name of ['off', 'instant', 'on']) cpu[name].push(await run(services[name], placements[name].request));
      cpu.call.push(await authorize());
      log(`    round ${round + 1}: CPU per placement ${fmt(cpu.off.at(-1).cpu)} µs off, ${fmt(cpu.instant.at(-1).cpu)} µs instant, ${fmt(cpu.on.at(-1).cpu)} µs on; one gateway call alone ${fmt(cpu.call.at(-1).cpu)} µs`);
    }
    await standIn.call('latency', { ms: PROVIDER_LATENCY_MS });
    for (let round = 0; round < rounds; round++) {
      for (const name of ['off', 'on']) slow[name].push(await run(services[name], placements[name].request));
      slow.call.push(await authorize());
      log(`    round ${round + 1}: p99 ${slow.off.at(-1).p99} ms off, ${slow.on.at(-1).p99} ms on; one gateway call p99 ${slow.call.at(-1).p99} ms`);
    }
    await standIn.call('latency', { ms: 0 });

    row(`POST /api/orders, ${store}, payments off`, summarize(cpu.off));
    row(`POST /api/orders, ${store}, payments, instant gateway`, summarize(cpu.instant));
    row(`POST /api/orders, ${store}, payments, stand-in at once`, summarize(cpu.on));
    row(`POST /api/orders, ${store}, payments off (with the ${PROVIDER_LATENCY_MS} ms rounds)`, summarize(slow.off));
    row(`POST /api/orders, ${store}, payments, stand-in ${PROVIDER_LATENCY_MS} ms`, summarize(slow.on));
    const diffs = (a, b) => a.map((m, i) => m.cpu - b[i].cpu);
    const own = diffs(cpu.instant, cpu.off);
    const trip = diffs(cpu.on, cpu.instant);
    const offCpu = median(cpu.off.map((m) => m.cpu));
    const callCpu = median(cpu.call.map((c) => c.cpu));
    const list = (xs, digits = 0) => xs.map((x) => fmt(x, digits)).join(', ');
    verdicts.push(
      `${store}: the payment path's own CPU (instant gateway − none) ≤ ${OWN_COST_SHARE * 100} % of a placement: **${Math.abs(median(own)) <= OWN_COST_SHARE * offCpu ? 'met' : 'not met'}** (${fmt(median(own))} µs of ${fmt(offCpu)}, rounds ${list(own)})`,
      `${store}: the provider round trip in the service (stand-in − instant): ${fmt(median(trip))} µs CPU (rounds ${list(trip)}); the same gateway call in a loop alone: ${fmt(callCpu)} µs (rounds ${list(cpu.call.map((c) => c.cpu))}); on − off ${fmt(median(diffs(cpu.on, cpu.off)))} µs`,
    );
    const extraP99 = slow.on.map((m, i) => m.p99 - slow.off[i].p99);
    const callP99 = median(slow.call.map((c) => c.p99));
    verdicts.push(
      `${store}: p99 with payments ≤ without + one gateway call's p99 (stand-in ${PROVIDER_LATENCY_MS} ms): **${median(extraP99) <= callP99 ? 'met' : 'not met'}** (+${fmt(median(extraP99), 1)} ms, rounds ${list(extraP99, 1)}; one call's p99 ${fmt(callP99, 1)} ms; off ${slow.off.map((m) => m.p99).join(', ')} ms, on ${slow.on.map((m) => m.p99).join(', ')} ms)`,
    );

    const answered = (runs) => runs.reduce((sum, m) => sum + m.requests, 0);
    const stored = {};
    for (const [name, runs] of [['off', cpu.off.concat(slow.off)], ['instant', cpu.instant], ['on', cpu.on.concat(slow.on)]]) {
      stored[name] = { ...(await countStored(services[name].url, placements[name].token, answered(runs), Number.POSITIVE_INFINITY, databases[name])) };
    }
    const after = await standIn.call('requests');
    const asked = Object.entries(after)
      .map(([shape, count]) => [shape, count - (before[shape] ?? 0) - (shape === 'POST /v1/payment_intents' ? opened : 0)])
      .filter(([, count]) => count !== 0);
    const intents = Object.fromEntries(asked)['POST /v1/payment_intents'] ?? 0;
    const short = Object.values(stored).some((s) => s.stored < s.answered);
    notes.push(
      `payments (${store}): orders stored for the measured 201s (warm-ups stored too): ${Object.entries(stored).map(([name, s]) => `${name} ${fmt(s.stored)} for ${fmt(s.answered)}`).join(', ')}${short ? ' — FEWER THAN ANSWERED!' : ''}; ` +
        `the stand-in was asked ${asked.map(([shape, count]) => `${shape} × ${fmt(count)}`).join(', ') || 'nothing'} for the ${fmt(stored.on.stored)} orders with payments${intents === stored.on.stored && asked.length === 1 ? ' (one intent each, nothing else)' : ' — NOT ONE INTENT EACH!'}`,
    );
  } finally {
    await Promise.all(Object.values(services).map((svc) => svc.stop()));
  }
}
