/**
 * The Storefront service under test, in its own process (so that the load generator does not share
 * its event loop). Started by bench/run.mjs with `fork`: configuration comes from the environment
 * exactly as for `pnpm start`, log lines go to this process's stdout (the parent points it at
 * /dev/null or a pipe), and the parent steers it over the IPC channel:
 *
 *   { cmd: 'eld-start', resolution }     start an event-loop delay histogram (timer every `resolution` ms)
 *   { cmd: 'eld-stop' }                  → { p50, p99, max } delay in ms, the timer interval taken off
 *   { cmd: 'index-build', repeat }       → ms of MenuSearchIndex.build over the current menu, per build
 *   { cmd: 'seed-orders', customerId | customerIds, productId, count, mix? }
 *                                        places `count` orders through the domain use case (round
 *                                        robin over the customers), then moves them through the
 *                                        kitchen's use case so that `mix` ({status: weight}, e.g.
 *                                        {placed: 12, completed: 2}) holds: order j ends at the
 *                                        status at j mod the total weight (default: all placed)
 *                                        → { ms, moves, moveMs, counts, rss, heapUsed }
 *   { cmd: 'memory' }                    → process.memoryUsage() (after a GC when exposed)
 *   { cmd: 'cpu' }                       → process.cpuUsage()
 *   { cmd: 'unchecked' }                 → how many requests skipped their schema check (below)
 *   { cmd: 'stop' }                      graceful close, then exit
 *
 * Nothing new is exposed over HTTP.
 *
 * BENCH_UNCHECKED=placeOrder,listProducts (operation ids): those operations' checks against
 * packages/adapters-http/openapi.yaml are swapped, in this process only, for one that hands the request over as it
 * came (an absent body as `{}`, as the check reads it): what the schema checking costs, measured by
 * the `schema` scenario. Only for valid requests (the bench sends nothing else); no switch of the
 * service's own does this.
 *
 * BENCH_PAYMENT_GATEWAY=instant (with STOREFRONT_PAYMENTS=stripe): the Stripe gateway's `authorize`
 * answers at once, without a request (a new intent awaiting the card), in this process only: the
 * payment path's own cost without the provider's round trip, measured by the `payments` scenario.
 * BENCH_PAYMENT_SWEEPER=off: the payment sweeper is stopped once the service runs (it reads
 * intents two minutes after placement: not placement's cost).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startStorefront } from '../packages/app/dist/src/server.js';
import { pathFromPlaced } from '../packages/domain/dist/src/adapter-kit.js';
import { openApiDocument } from '../packages/adapters-http/dist/src/contract/document.js';
import { operationChecks } from '../packages/adapters-http/dist/src/contract/operations.js';
import { answerParent } from './child.mjs';

if (process.env.BENCH_PAYMENT_GATEWAY === 'instant') {
  const { StripePaymentGateway } = await import('../packages/adapters-stripe/dist/src/index.js');
  let intents = 0;
  StripePaymentGateway.prototype.authorize = async (request) => {
    const intentId = `pi_bench${(++intents).toString(36)}`;
    return { status: 'awaiting', intentId, orderId: request.orderId, clientSecret: `${intentId}_secret_bench`, amount: request.amount, currency: request.currency };
  };
}

const started = performance.now();
const running = await startStorefront(process.env);
// A persistent store (PostgreSQL) connects, migrates and seeds after the start: serve once it has.
await running.ready;
const startMs = performance.now() - started;
if (process.env.BENCH_PAYMENT_SWEEPER === 'off') running.storefront.paymentSweeper?.stop();
// The first read builds the menu snapshot (products, id map and search index) if start-up did not.
const firstRead = performance.now();
await running.storefront.searchMenu.execute({ q: 'warm' });
const firstReadMs = performance.now() - firstRead;

/** The reasons the exits need (the moves from placed to each status: the domain's pathFromPlaced). */
const REASONS = { rejected: 'bench: out of dough', cancelled: 'bench: customer called' };

// The checks compiled at start (one Map per document and process, read by dispatch.ts per request).
let unchecked = 0;
for (const id of (process.env.BENCH_UNCHECKED ?? '').split(',').filter(Boolean)) {
  const operation = operationChecks(openApiDocument()).get(id);
  if (operation === undefined) throw new Error(`BENCH_UNCHECKED: no operation ${id}`);
  operation.check = ({ params, query, body }) => {
    unchecked++;
    return { params, query, body: body ?? {} };
  };
}

let histogram = null;
let resolutionMs = 0;

const handlers = {
  'eld-start': ({ resolution = 1 }) => {
    resolutionMs = resolution;
    histogram = monitorEventLoopDelay({ resolution });
    histogram.enable();
    return {};
  },
  // The histogram holds the time between the timer's wake-ups: the interval itself is taken off.
  'eld-stop': () => {
    histogram.disable();
    const ms = (ns) => Math.max(0, ns / 1e6 - resolutionMs);
    const result = { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), samples: histogram.count };
    histogram = null;
    return result;
  },
  // Times MenuSearchIndex.build alone over the current menu (an internal of the domain package).
  'index-build': async ({ repeat = 1 }) => {
    const { MenuSearchIndex } = await import('../packages/domain/dist/src/search/menu-search-index.js');
    const { products } = await running.storefront.listMenu.execute();
    const times = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      MenuSearchIndex.build(products);
      times.push(performance.now() - t0);
    }
    return times;
  },
  'seed-orders': async ({ customerId, customerIds = [customerId], productId, count, mix }) => {
    const t0 = performance.now();
    const place = running.storefront.placeOrder;
    const move = running.storefront.moveOrder;
    const items = [{ productId, quantity: 1 }];
    // Order j takes the status at j mod the mix's length, e.g. {placed: 12, completed: 2, …} of 20.
    const cycle = Object.entries(mix ?? { placed: 1 }).flatMap(([status, weight]) => Array(weight).fill(status));
    const counts = Object.fromEntries(cycle.map((status) => [status, 0]));
    let moves = 0;
    let moveMs = 0;
    for (let i = 0; i < count; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(count, i + 1000); j++) batch.push(place.execute({ customerId: customerIds[j % customerIds.length], items }));
      const placed = await Promise.all(batch);
      const m0 = performance.now();
      // Step k moves every order of the batch whose path is longer than k, in parallel.
      const paths = placed.map(({ order }, k) => {
        const status = cycle[(i + k) % cycle.length];
        counts[status]++;
        return { orderId: order.orderId, path: pathFromPlaced(status) };
      });
      for (let step = 0; step < 4; step++) {
        const now = paths.filter(({ path }) => path.length > step);
        if (now.length === 0) break;
        await Promise.all(now.map(({ orderId, path }) => move.execute({ orderId, status: path[step], reason: REASONS[path[step]] })));
        moves += now.length;
      }
      moveMs += performance.now() - m0;
    }
    return { ms: performance.now() - t0, moves, moveMs, counts, ...memory() };
  },
  memory: () => memory(),
  cpu: () => process.cpuUsage(),
  unchecked: () => unchecked,
  stop: async () => {
    await running.close();
    setImmediate(() => process.exit(0));
    return {};
  },
};

function memory() {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

answerParent(handlers, { url: running.url, metricsUrl: running.metricsUrl, startMs, firstReadMs });
