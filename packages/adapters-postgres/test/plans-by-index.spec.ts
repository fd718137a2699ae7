/**
 * Every named statement (src/named-statements.ts) and every sweep a write carries
 * (src/expiry-sweep.ts) reads by index under a generic plan: the plan PostgreSQL keeps for a
 * prepared statement, made without the parameters' values (the hardest case: a table never
 * analyzed gives an unnamed statement's plan as little to go on). The tables hold enough rows that
 * a sequential scan would cost something, first as a new deployment's tables are (grown since the
 * migration, never analyzed: autovacuum is held off here), then analyzed. A named statement's plan
 * is kept while its tables grow, so it must also read nothing whole when made on small analyzed
 * tables; an unnamed sweep is planned for the table's size at each run. One customer holds every
 * key, as a kiosk's account or a load test's would.
 */
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { EXPIRY_SWEEPS } from '../src/expiry-sweep.js';
import { NAMED_STATEMENTS } from '../src/named-statements.js';
import { usePostgresAdapters } from './postgres-adapters.js';
import { seedOrders } from './scale-seed.js';

const ROWS = 20_000;
const SWEPT_TABLES = ['idempotency_keys', 'sessions', 'password_reset_tokens'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function sequentialScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' ? [node['Relation Name'] ?? '?'] : [];
  return own.concat(...(node.Plans ?? []).map(sequentialScans));
}

/** The highest $n of a statement: EXECUTE needs that many arguments. */
function parameterCount(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}

describe('Named statements and sweeps: their generic plans read by index', function () {
  this.timeout(60_000);
  const { database } = usePostgresAdapters('storefront_pg_named');

  before(async function () {
    this.timeout(300_000);
    const pool = database().pool;
    await seedOrders(pool, ROWS);
    await pool.query(
      `INSERT INTO idempotency_keys (customer_id, key, state, fingerprint, owner, order_id, order_created_at, lock_expires_at, expires_at)
       SELECT 'cus_kiosk', 'key-' || g, 'completed', 'f', 'o', 'ord_scale_' || lpad(g::text, 8, '0'), now(), now(), now() + interval '1 day' + g * interval '1 second'
         FROM generate_series(1, $1::int) AS g`,
      [ROWS],
    );
    await pool.query(
      `INSERT INTO sessions (session_id, customer_id, refresh_token_hash, created_at, expires_at)
       SELECT 'ses_' || g, 'cus_kiosk', md5(g::text), now(), now() + interval '30 days' + g * interval '1 second'
         FROM generate_series(1, $1::int) AS g`,
      [ROWS],
    );
    await pool.query(
      `INSERT INTO password_reset_tokens (token_hash, customer_id, created_at, expires_at)
       SELECT md5(g::text), 'cus_kiosk', now(), now() + interval '1 hour' + g * interval '1 second'
         FROM generate_series(1, $1::int) AS g`,
      [ROWS],
    );
    for (const table of SWEPT_TABLES) await pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  });

  it('names the placement statement only', () => {
    expect(NAMED_STATEMENTS.map((statement) => statement.name)).to.have.members(['storefront_place_fresh']);
  });

  it('sweeps the key, session and reset token tables', () => {
    expect([...new Set(EXPIRY_SWEEPS.map((sweep) => sweep.table))]).to.have.members(SWEPT_TABLES);
  });

  /** The tables a plan reads whole. */
  async function sequentialScansOf(text: string): Promise<string[]> {
    const client = await database().pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE generic AS ${text}`);
      const nulls = Array.from({ length: parameterCount(text) }, () => 'NULL').join(', ');
      const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) EXECUTE generic${nulls === '' ? '' : `(${nulls})`}`);
      return sequentialScans(explained.rows[0]!['QUERY PLAN'][0]!.Plan);
    } finally {
      await client.query('DEALLOCATE ALL; RESET plan_cache_mode');
      client.release();
    }
  }

  function eachNamedStatementReadsByIndex(): void {
    for (const statement of NAMED_STATEMENTS) {
      it(`${statement.name}: no sequential scan`, async () => {
        expect(await sequentialScansOf(statement.text)).to.deep.equal([]);
      });
    }
  }

  function eachStatementReadsByIndex(): void {
    eachNamedStatementReadsByIndex();
    for (const sweep of EXPIRY_SWEEPS) {
      it(`the sweep of ${sweep.table} (${/LIMIT (\d+)/.exec(sweep.text)?.[1]} rows): no sequential scan`, async () => {
        // Alone, the sweep leaves some of its statement's parameters unused: they are selected as text.
        const used = new Set([...sweep.text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
        const unused = Array.from({ length: parameterCount(sweep.text) }, (_, i) => i + 1).filter((n) => !used.has(n));
        expect(await sequentialScansOf(`WITH ${sweep.text} SELECT 1${unused.map((n) => `, $${n}::text`).join('')}`)).to.deep.equal([]);
      });
    }
  }

  describe('on tables never analyzed', eachStatementReadsByIndex);

  describe('on analyzed tables', () => {
    before(() => database().pool.query(`ANALYZE ${SWEPT_TABLES.join(', ')}`));
    eachStatementReadsByIndex();
  });

  describe('on small analyzed tables (the named statements)', () => {
    before(async () => {
      const pool = database().pool;
      for (const table of [...SWEPT_TABLES, 'orders']) await pool.query(`DELETE FROM ${table} WHERE ctid NOT IN (SELECT ctid FROM ${table} LIMIT 20)`);
      await pool.query(`VACUUM ANALYZE ${[...SWEPT_TABLES, 'orders'].join(', ')}`);
    });
    eachNamedStatementReadsByIndex();
  });
});
