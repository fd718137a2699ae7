/**
 * The `pgorders` scenario of bench/run.mjs: order placement (POST /api/orders, no Idempotency-Key,
 * 16 connections) on the PostgreSQL store against the memory store, the two services alternated
 * round after round (the machine is shared: load drifts). The PostgreSQL service runs on a
 * throwaway database of the server of DATABASE_URL (default the machine's
 * postgres://postgres@127.0.0.1:5432/test), dropped at the end; its pool is the default
 * (PG_POOL_MAX 10, PG_TIMEOUT_MS 2000). Afterwards the customer's order count is checked against
 * the 201s: every answered placement was stored.
 */
import { generateSigningKey } from '../packages/adapters-crypto/dist/src/index.js';
import { createTestDatabase } from '../packages/testing/dist/src/postgres-test-database.js';
import { json, login } from './lib.mjs';
import { median, summarize } from './stats.mjs';

export async function postgresOrdersScenario({ child, run, row, log, fmt, serviceEnv, rounds }) {
  const database = await createTestDatabase('storefront_bench');
  try {
    const postgresEnv = { ...serviceEnv, STOREFRONT_STORE: 'postgres', DATABASE_URL: database.url, STOREFRONT_DEMO_DATA: 'true', TOKEN_SECRET_KEY: generateSigningKey() };
    const services = [
      { name: 'memory', child: await child('service.mjs', serviceEnv), runs: [] },
      { name: 'PostgreSQL', child: await child('service.mjs', postgresEnv), runs: [] },
    ];
    log(`pgorders: POST /api/orders on the memory store and on PostgreSQL (${database.name}), alternated`);
    for (const service of services) {
      const token = await login(service.child.url, 'alice@example.com', 'alice-password');
      const menu = (await json(`${service.child.url}/api/products`)).body.products;
      const dish = menu.find((p) => p.available && p.option_groups.every((g) => g.min === 0));
      service.token = token;
      service.request = {
        url: `${service.child.url}/api/orders`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ product_id: dish.product_id, quantity: 2 }] }),
      };
    }
    for (let round = 0; round < rounds; round++) {
      for (const service of services) service.runs.push(await run(service.child, service.request));
      log(`    round ${round + 1}: ${services.map((s) => `${s.name} ${fmt(s.runs.at(-1).rps)}`).join(', ')} req/s`);
    }
    const [memory, postgres] = services;
    const ratios = postgres.runs.map((m, i) => m.rps / memory.runs[i].rps);
    row('POST /api/orders, memory store (pgorders rounds)', summarize(memory.runs));
    row('POST /api/orders, PostgreSQL store (PG_POOL_MAX 10)', summarize(postgres.runs), median(ratios), 'the memory store');
    const placed = postgres.runs.reduce((sum, m) => sum + m.requests, 0);
    const stored = (await json(`${postgres.child.url}/api/orders?limit=1`, { headers: { authorization: `Bearer ${postgres.token}` } })).body.meta.total;
    const notes = [
      `pgorders: PostgreSQL placement at ${fmt(median(ratios), 2)} of the memory store's throughput (median of ${rounds} alternated rounds: ${ratios.map((r) => fmt(r, 2)).join(', ')}); ` +
        `${fmt(stored)} orders stored for ${fmt(placed)} measured 201s plus the warm-ups${stored >= placed ? '' : ' — FEWER THAN ANSWERED!'}`,
    ];
    for (const service of services) await service.child.stop();
    return { notes };
  } finally {
    await database.drop();
  }
}
