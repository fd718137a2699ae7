/**
 * One provider round trip, alone: what placement with payments adds at most (issue 35). In a process
 * of its own, bench/payments.mjs asks for `{ cmd: 'authorize', url, apiKey, concurrency, seconds }`:
 * the service's own gateway (StripePaymentGateway on the `stripe` SDK, as STOREFRONT_PAYMENTS=stripe
 * wires it) opens intents against the stand-in, `concurrency` at a time, for `seconds`
 * → { calls, opened (warm-up included), cpu (µs of this process per call), p50, p99 (ms) }.
 */
import { createStripeClient, StripePaymentGateway } from '../packages/adapters-stripe/dist/src/index.js';
import { answerParent } from './child.mjs';

async function authorize({ url, apiKey, concurrency, seconds }) {
  const gateway = new StripePaymentGateway(createStripeClient({ secretKey: apiKey, apiBase: url }));
  const prefix = `bench-${process.pid}-${Date.now().toString(36)}`;
  let n = 0;
  const open = () => {
    const id = `${prefix}-${++n}`;
    return gateway.authorize({ orderId: `ord_${id}`, amount: 1250, currency: 'EUR', idempotencyKey: `authorize:${id}` });
  };
  // Warm-up: connections open, code paths compiled.
  await Promise.all(Array.from({ length: concurrency }, open));
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await open();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const cpu = process.cpuUsage(before);
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
  return { calls: latencies.length, opened: n, cpu: (cpu.user + cpu.system) / latencies.length, p50: at(0.5), p99: at(0.99) };
}

answerParent({ authorize, stop: () => setImmediate(() => process.exit(0)) });
