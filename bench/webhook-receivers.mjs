/**
 * The webhook receivers of bench/webhooks.mjs, in a process of their own: WEBHOOK_RECEIVERS plain
 * node:http servers on 127.0.0.1 that answer 204 at once and note, for each request, how long after
 * the event's `timestamp` (the order change, in the service's clock, which is this machine's) it
 * arrived. No signature check: the tests verify signatures; this measures the service.
 *
 *   { cmd: 'stats' }   → { received, duplicates, lastAt, p50, p99, max } latency in ms since the reset
 *   { cmd: 'reset' }   forget what arrived
 */
import http from 'node:http';
import { answerParent } from './child.mjs';

const count = Number(process.env.WEBHOOK_RECEIVERS ?? 10);
let latencies = [];
let received = 0;
let lastAt = 0;
const seen = new Set();
let duplicates = 0;

const servers = [];
for (let i = 0; i < count; i++) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const key = `${i} ${req.headers['webhook-id']}`;
      if (seen.has(key)) duplicates++;
      else seen.add(key);
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      latencies.push(now - Date.parse(timestamp));
      received++;
      lastAt = now;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

answerParent(
  {
    stats: () => {
      const sorted = Float64Array.from(latencies).sort();
      return { received, duplicates, lastAt, p50: at(sorted, 0.5), p99: at(sorted, 0.99), max: sorted.at(-1) };
    },
    reset: () => {
      latencies = [];
      received = 0;
      duplicates = 0;
      seen.clear();
      return {};
    },
    stop: () => process.exit(0),
  },
  { urls: servers.map((s) => `http://127.0.0.1:${s.address().port}/hooks`) },
);
