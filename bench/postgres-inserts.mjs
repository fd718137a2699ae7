/**
 * The `pginserts` scenario of bench/run.mjs (also `node bench/postgres-inserts.mjs`): order inserts
 * straight into PostgresOrderRepository, no HTTP, on two throwaway databases of the server of
 * DATABASE_URL (default the machine's), one at schema version 2 (list positions given at insert,
 * under the list sizes' row locks) and one at the current version (positions given by readers,
 * migration 3), runs alternated round after round. 16 concurrent inserters on a pool of 10 (the
 * service's default), orders of one customer or of 1,000, while a kitchen screen reads page 1 of the
 * open queue every 250 ms (a reader numbers what arrived). Afterwards each database's lists are
 * checked: every order stored once, at its place. Prints a Markdown table and notes (stdout).
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { OPEN_STATUSES } from '../packages/domain/dist/src/adapter-kit.js';
import { anOrder } from '../packages/testing/dist/src/builders.js';
import { createTestDatabase } from '../packages/testing/dist/src/postgres-test-database.js';
import { createPostgresAdapters, migrate, PostgresIdempotencyKeys, PostgresOrderRepository, SCHEMA_VERSION } from '../packages/adapters-postgres/dist/src/index.js';
import { ordersByStatusQuery } from '../packages/adapters-postgres/dist/src/order-queries.js';
import { median } from './stats.mjs';

// The driver the adapter runs on (a dependency of adapters-postgres, not of the workspace root).
const pg = createRequire(new URL('../packages/adapters-postgres/package.json', import.meta.url))('pg');

const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INSERTERS = 16;
const POOL_MAX = 10;
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Inserts for `seconds` from 16 workers while a reader polls the kitchen's queue: orders per second. */
async function insertRun({ orders, read }, customers, seconds) {
  const until = performance.now() + seconds * 1000;
  let inserted = 0;
  let n = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const result = await orders.insert(anOrder({ customerId: customers[n++ % customers.length] }));
      if (result.inserted) inserted++;
    }
  };
  const reader = async () => {
    while (performance.now() < until) {
      await read();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const started = performance.now();
  await Promise.all([...Array.from({ length: INSERTERS }, worker), reader()]);
  return { rate: inserted / ((performance.now() - started) / 1000), inserted };
}

/** Every order once, and the lists' positions as their definitions say (read through the repository first). */
async function check({ pool, orders, version }, customers) {
  if (version > 2) {
    await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 1 });
    for (const customer of customers) await orders.listByCustomer(customer, { page: 1, limit: 1 });
  }
  const stored = Number((await pool.query('SELECT count(*) AS n FROM orders')).rows[0].n);
  const open = Number((await pool.query("SELECT size FROM order_list_sizes WHERE list = 'open'")).rows[0].size);
  const misplaced = Number(
    (
      await pool.query(`SELECT count(*) AS n FROM (
        SELECT customer_seq, status_seq, open_seq,
               row_number() OVER (PARTITION BY customer_id ORDER BY created_at, order_id) AS c,
               row_number() OVER (PARTITION BY status ORDER BY promised_at, created_at, order_id) AS s,
               row_number() OVER (ORDER BY promised_at, created_at, order_id) AS o FROM orders) ranked
        WHERE customer_seq IS DISTINCT FROM c OR status_seq IS DISTINCT FROM s OR open_seq IS DISTINCT FROM o`)
    ).rows[0].n,
  );
  return { stored, open, misplaced };
}

export async function postgresInserts() {
  const lines = [];
  const notes = [];
  for (const [label, customers] of [
    ['one customer', ['cus_bench_one']],
    ['1,000 customers', Array.from({ length: 1000 }, (_, i) => `cus_bench_${i}`)],
  ]) {
    const setups = [];
    try {
      for (const version of [2, SCHEMA_VERSION]) {
        const database = await createTestDatabase('storefront_pginserts');
        const pool = new pg.Pool({ connectionString: database.url, max: POOL_MAX });
        setups.push({ version, database, pool, runs: [], inserted: 0 });
        await migrate(pool, { to: version });
        // The repository's insert on either schema (createPostgresAdapters wants the current one); on
        // version 2 the kitchen's page is read by its query alone (no numbering: the inserts gave the positions).
        const setup = setups.at(-1);
        if (version === SCHEMA_VERSION) {
          setup.orders = (await createPostgresAdapters({ pool })).orders;
          setup.read = () => setup.orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 20 });
        } else {
          setup.orders = new PostgresOrderRepository(pool, new PostgresIdempotencyKeys(pool));
          const { text, values } = ordersByStatusQuery(OPEN_STATUSES, { page: 1, limit: 20 });
          setup.read = () => pool.query(text, values);
        }
      }
      for (const setup of setups) await insertRun(setup, customers, 0.5); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const setup of round % 2 === 0 ? setups : [...setups].reverse()) {
          setup.runs.push((await insertRun(setup, customers, SECONDS)).rate);
        }
        console.error(`    ${label}, round ${round + 1}: ${setups.map((s) => `version ${s.version} ${fmt(s.runs.at(-1))}`).join(', ')} inserts/s`);
      }
      const [before, after] = setups;
      const ratios = after.runs.map((rate, i) => rate / before.runs[i]);
      for (const setup of setups) {
        lines.push(`| ${label}, schema version ${setup.version}${setup.version === 2 ? ' (positions at insert)' : ' (positions by readers)'} | ${fmt(median(setup.runs))} | ${setup.runs.map((r) => fmt(r)).join(', ')} |`);
      }
      notes.push(`${label}: version ${after.version} / version 2 = ${fmt(median(ratios), 2)} (per round ${ratios.map((r) => fmt(r, 2)).join(', ')})`);
      for (const setup of setups) {
        const c = await check(setup, customers);
        notes.push(`${label}, version ${setup.version}: ${fmt(c.stored)} orders stored (${fmt(c.open)} in the open queue), ${c.misplaced === 0 && c.open === c.stored ? 'every one at its place in every list' : `${c.misplaced} OUT OF PLACE`}`);
      }
    } finally {
      for (const setup of setups) {
        await setup.pool.end();
        await setup.database.drop();
      }
    }
  }
  return [
    `PostgreSQL order inserts (PostgresOrderRepository, ${INSERTERS} inserters, pool ${POOL_MAX}, a kitchen read every 250 ms; ${ROUNDS} alternated rounds of ${SECONDS} s):`,
    '',
    '| inserts | per second (median) | per round |',
    '|---|---:|---|',
    ...lines,
    '',
    ...notes.map((note) => `- ${note}`),
    `- load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await postgresInserts());
  process.exit(0);
}
