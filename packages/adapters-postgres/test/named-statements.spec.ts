/**
 * Every named statement (src/named-statements.ts) reads by index under its generic plan: the plan
 * PostgreSQL keeps for a prepared statement, made without the parameters' values. The tables hold
 * enough rows that a sequential scan would cost something, first as a new deployment's tables are
 * (idempotency_keys grown since the migration, never analyzed: autovacuum is held off here), then
 * analyzed. One customer holds every key, as a kiosk's account or a load test's would.
 */
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { NAMED_STATEMENTS } from '../src/named-statements.js';
import { usePostgresAdapters } from './postgres-adapters.js';
import { seedOrders } from './scale-seed.js';

const ROWS = 20_000;

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

describe('Named statements: their generic plans read by index', function () {
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
    await pool.query('ALTER TABLE idempotency_keys SET (autovacuum_enabled = false)');
  });

  it('names the placement and the outbox statements', () => {
    expect(NAMED_STATEMENTS.map((statement) => statement.name)).to.have.members(['storefront_place_fresh', 'storefront_outbox_list', 'storefront_outbox_mark']);
  });

  function eachStatementReadsByIndex(): void {
    for (const statement of NAMED_STATEMENTS) {
      it(`${statement.name}: no sequential scan`, async () => {
        const client = await database().pool.connect();
        try {
          await client.query('SET plan_cache_mode = force_generic_plan');
          await client.query(`PREPARE generic AS ${statement.text}`);
          const nulls = Array.from({ length: parameterCount(statement.text) }, () => 'NULL').join(', ');
          const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) EXECUTE generic(${nulls})`);
          expect(sequentialScans(explained.rows[0]!['QUERY PLAN'][0]!.Plan)).to.deep.equal([]);
        } finally {
          await client.query('DEALLOCATE ALL; RESET plan_cache_mode');
          client.release();
        }
      });
    }
  }

  describe('on tables never analyzed', eachStatementReadsByIndex);

  describe('on analyzed tables', () => {
    before(() => database().pool.query('ANALYZE idempotency_keys'));
    eachStatementReadsByIndex();
  });
});
