/**
 * The `metrics` scenario of bench/run.mjs: what METRICS_PORT costs GET /api/products. Three services
 * from the same environment: metrics off, metrics on, and metrics off again (the control), run one
 * after the other in each round, the order rotated from round to round (the one run first in a
 * round tends to do best on this shared machine). Each ratio is the median of per-round ratios to
 * the first service; the control's is what two identical services differ by here. The service with
 * metrics is scraped once a second meanwhile, as a Prometheus fifteen times more eager than its
 * default would be; the scrapes are timed.
 */
import { median, summarize } from './stats.mjs';

const TARGET = 0.95;


export async function metricsScenario({ child, run, row, log, fmt, serviceEnv, rounds }) {
  const services = [
    { name: 'off', child: await child('service.mjs', serviceEnv), runs: [] },
    { name: 'on', child: await child('service.mjs', { ...serviceEnv, METRICS_PORT: '0' }), runs: [] },
    { name: 'control', child: await child('service.mjs', serviceEnv), runs: [] },
  ];
  const [off, on, control] = services;
  const metricsUrl = on.child.metricsUrl;
  if (typeof metricsUrl !== 'string') throw new Error('metrics: the service with METRICS_PORT=0 reported no metrics URL');
  log(`metrics: GET /api/products with METRICS_PORT unset, METRICS_PORT=0 (${metricsUrl}, scraped every second) and unset again, the order rotated each round`);
  const scrapes = [];
  let failed = 0;
  let last = '';
  const timer = setInterval(async () => {
    const t0 = performance.now();
    try {
      const res = await fetch(metricsUrl);
      last = await res.text();
      if (res.status !== 200) failed++;
      scrapes.push(performance.now() - t0);
    } catch {
      failed++;
    }
  }, 1_000);
  try {
    for (let round = 0; round < rounds; round++) {
      const order = services.map((_, i) => services[(i + round) % services.length]);
      for (const service of order) service.runs.push(await run(service.child, { url: `${service.child.url}/api/products` }));
      log(`    round ${round + 1}: ${order.map((s) => `${s.name} ${fmt(s.runs.at(-1).rps)}`).join(', ')} req/s`);
    }
  } finally {
    clearInterval(timer);
    await Promise.all(services.map((s) => s.child.stop()));
  }
  const summary = (s) => summarize(s.runs);
  const ratios = (s) => s.runs.map((m, i) => m.rps / off.runs[i].rps);
  const cpuRatio = (s) => median(s.runs.map((m, i) => m.cpu / off.runs[i].cpu));
  const withMetrics = ratios(on);
  const same = ratios(control);
  row('GET /api/products, metrics off (METRICS_PORT unset)', summary(off));
  row('GET /api/products, metrics on (METRICS_PORT=0, scraped every second)', summary(on), median(withMetrics), 'metrics off');
  row('control: GET /api/products, metrics off again (a third service)', summary(control), median(same), 'metrics off');
  const counted = /^storefront_http_requests_total\{method="GET",route="\/api\/products",status="200"\} (\d+)$/m.exec(last)?.[1];
  const sorted = [...scrapes].sort((a, b) => a - b);
  const per = (list) => list.map((r) => fmt(r, 3)).join(', ');
  return {
    verdicts: [
      `metrics cost GET /api/products under 5 % of its throughput: **${median(withMetrics) >= TARGET ? 'met' : 'not met'}** (on/off ${fmt(median(withMetrics), 3)}, median of ${rounds} rounds in rotated order: ${per(withMetrics)}; CPU per request ${fmt(cpuRatio(on), 3)}× off's; the control, metrics off in a third service: ${fmt(median(same), 3)} (${per(same)}), CPU ${fmt(cpuRatio(control), 3)}×)`,
    ],
    notes: [
      `metrics: ${scrapes.length} scrapes during the runs (${failed} failed), p50 ${fmt(median(sorted), 1)} ms, max ${fmt(sorted.at(-1), 1)} ms, ${fmt(Buffer.byteLength(last) / 1024, 1)} KiB each; the last counted ${counted === undefined ? 'no' : fmt(Number(counted))} GET /api/products 200 answers`,
    ],
  };
}
