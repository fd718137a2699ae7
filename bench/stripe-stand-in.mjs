/**
 * The Stripe stand-in of packages/testing in a process of its own (so that its CPU is neither the
 * service's nor the load generator's), steered by bench/payments.mjs over IPC:
 *
 *   { cmd: 'latency', ms }   answer every API request after `ms` (0: at once)
 *   { cmd: 'requests' }      → how many API requests reached it, by method and path shape
 *   { cmd: 'stop' }          close, then exit
 *
 * Announces { url, apiKey, webhookSecret } when ready.
 */
import { StripeStandIn } from '../packages/testing/dist/src/stripe-stand-in.js';
import { answerParent } from './child.mjs';

const standIn = await StripeStandIn.start({ clock: { now: () => new Date() } });

function shapes() {
  const counts = {};
  for (const { method, path } of standIn.requests) {
    const shape = `${method} ${path.replace(/\/(pi|re|pm)_[A-Za-z0-9_]+/g, '/{id}')}`;
    counts[shape] = (counts[shape] ?? 0) + 1;
  }
  return counts;
}

answerParent(
  {
    latency: ({ ms }) => {
      standIn.mode = ms > 0 ? 'slow' : 'up';
      standIn.slowMs = ms;
      return { ok: true };
    },
    requests: () => shapes(),
    cpu: () => process.cpuUsage(),
    stop: async () => {
      await standIn.close();
      setImmediate(() => process.exit(0));
      return { ok: true };
    },
  },
  { url: standIn.url, apiKey: standIn.apiKey, webhookSecret: standIn.webhookSecret },
);
