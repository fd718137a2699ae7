/**
 * Item 5 of issue 25: with many orders stored, a deep page of a customer's orders and of the
 * kitchen's queue reads no more rows or buffers than page 1, as PostgreSQL's own EXPLAIN (ANALYZE,
 * BUFFERS) of the repository's queries shows. And, to show the data is there to make a difference,
 * the OFFSET query the positions replace reads every row before the page.
 *
 * PG_SCALE_ORDERS orders (default 250,000, about 15 s here; `pnpm --filter
 * @storefront/adapters-postgres test:scale` runs it with 1,000,000 and page 5,000).
 */
import { anOrder } from '@storefront/testing';
import { type OrderStatus } from '@storefront/domain';
import { compareOrders, OPEN_STATUSES, type PageRequest } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { customerOrdersQuery, customerOrdersTotalQuery, ordersByStatusQuery, ordersByStatusTotalQuery, type Query } from '../src/order-queries.js';
import { usePostgresAdapters } from './postgres-adapters.js';
import { BIG_CUSTOMER, seedOrders } from './scale-seed.js';

const ORDERS = Number(process.env['PG_SCALE_ORDERS'] ?? 250_000);
const LIMIT = 20;
const DEEP_PAGE = 5_000;

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

/** What a query read: rows out of its scans (and filtered away), and buffers touched. */
interface Cost {
  readonly rows: number;
  readonly buffers: number;
  readonly scans: readonly string[];
}

/** Rows read where they are read: by the leaf scans, plus any a node filtered away. */
function scanned(node: PlanNode): { rows: number; scans: string[] } {
  const leaf = node.Plans === undefined;
  const own = {
    rows: ((leaf ? node['Actual Rows'] : 0) + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'],
    scans: node['Node Type'].includes('Scan') ? [node['Node Type']] : ([] as string[]),
  };
  for (const child of node.Plans ?? []) {
    const below = scanned(child);
    own.rows += below.rows;
    own.scans.push(...below.scans);
  }
  return own;
}

describe('Order paging at scale (EXPLAIN ANALYZE)', function () {
  this.timeout(300_000);
  const { database, adapters: usePostgresAdaptersOf } = usePostgresAdapters('storefront_scale');
  before(async function () {
    this.timeout(600_000);
    await seedOrders(database().pool, ORDERS);
  });

  async function cost(query: Query): Promise<Cost> {
    const result = await database().pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.text}`,
      query.values,
    );
    const plan = result.rows[0]!['QUERY PLAN'][0]!.Plan;
    const { rows, scans } = scanned(plan);
    return { rows, buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'], scans };
  }

  /** Page 5,000, or the last full page of a list too short for it. */
  async function deepPage(total: Query): Promise<PageRequest> {
    const size = Number((await database().pool.query<{ size: string }>(total.text, total.values)).rows[0]!.size);
    expect(size, 'the list is long enough for a deep page').to.be.at.least(LIMIT * 1000);
    return { page: Math.min(DEEP_PAGE, Math.floor(size / LIMIT)), limit: LIMIT };
  }

  async function expectDeepPageAsCheap(page: (request: PageRequest) => Query, total: Query): Promise<void> {
    const deep = await deepPage(total);
    const first = await cost(page({ page: 1, limit: LIMIT }));
    const far = await cost(page(deep));
    console.log(`      page 1: ${first.rows} rows, ${first.buffers} buffers; page ${deep.page}: ${far.rows} rows, ${far.buffers} buffers`);
    expect(first.rows, `page 1 reads its ${LIMIT} rows`).to.equal(LIMIT);
    expect(far.rows, `page ${deep.page} reads no more rows than page 1 (${far.scans.join(', ')})`).to.be.at.most(first.rows);
    // The same index, one level deeper at most where the page's keys straddle a leaf.
    expect(far.buffers, `page ${deep.page} touches no more buffers than page 1`).to.be.at.most(first.buffers + 2);
    expect(far.scans.every((scan) => /^(Index|Bitmap)/.test(scan)), far.scans.join(', ')).to.equal(true);
    expect((await cost(total)).rows).to.be.at.most(1);
  }

  it(`reads page 5,000 of a customer's orders as cheaply as page 1 (${ORDERS.toLocaleString('en')} orders stored)`, async () => {
    await expectDeepPageAsCheap((request) => customerOrdersQuery(BIG_CUSTOMER, request), customerOrdersTotalQuery(BIG_CUSTOMER));
  });

  it("reads a deep page of the kitchen's queue of open orders as cheaply as page 1", async () => {
    await expectDeepPageAsCheap((request) => ordersByStatusQuery(OPEN_STATUSES, request), ordersByStatusTotalQuery(OPEN_STATUSES));
  });

  it('reads a deep page of one status (the completed orders) as cheaply as page 1', async () => {
    const completed: OrderStatus[] = ['completed'];
    await expectDeepPageAsCheap((request) => ordersByStatusQuery(completed, request), ordersByStatusTotalQuery(completed));
  });

  // Positions are given by readers (migration 3): what a reader adds before its page must not grow
  // with the orders stored either.
  it('numbers orders placed since the last read without reading the lists, and with nothing to number reads nothing', async () => {
    // One session, the functions' plans made once before (a first call reads the catalogues).
    const client = await database().pool.connect();
    const buffers = async (text: string, values: unknown[]) => {
      const result = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
      const plan = result.rows[0]!['QUERY PLAN'][0]!.Plan;
      return plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
    };
    const { orders } = usePostgresAdaptersOf();
    const place = async () => {
      const order = anOrder({ customerId: BIG_CUSTOMER });
      await orders.insert(order);
      return order;
    };
    let kitchen = 0;
    let customer = 0;
    let idle = 0;
    const placed = [];
    try {
      for (let round = 0; round < 2; round++) {
        placed.push(await place(), await place());
        kitchen = await buffers('SELECT storefront_number_kitchen(500)', []);
        customer = await buffers('SELECT storefront_number_customer($1, 500)', [BIG_CUSTOMER]);
        idle = await buffers('SELECT storefront_number_kitchen(500), storefront_number_customer($1, 500)', [BIG_CUSTOMER]);
      }
    } finally {
      client.release();
    }
    // About 200 buffers at 2,000 orders as at 250,000 (a few pages of each index its statements use).
    const table = Number((await database().pool.query<{ pages: string }>("SELECT pg_relation_size('orders') / current_setting('block_size')::int AS pages")).rows[0]!.pages);
    console.log(`      numbering 2 new orders: kitchen ${kitchen} buffers, customer ${customer} buffers; nothing to number: ${idle} buffers (the orders table: ${table} pages)`);
    expect(kitchen, 'the kitchen numbering touches a few index pages, not the lists').to.be.below(400);
    expect(customer, 'the customer numbering likewise').to.be.below(400);
    expect(idle, 'nothing to number').to.be.below(20);
    const last = await orders.listByCustomer(BIG_CUSTOMER, { page: Math.ceil(ORDERS / 4 / LIMIT) + 1, limit: LIMIT });
    // In list order: two orders placed in one millisecond follow their ids, not the order of placing.
    const listed = [...placed].sort(compareOrders).map((order) => order.orderId);
    expect(last.items.slice(-placed.length).map((order) => order.orderId)).to.deep.equal(listed);
  });

  it('has enough orders that an OFFSET query would read every row before the deep page', async () => {
    const deep = await deepPage(customerOrdersTotalQuery(BIG_CUSTOMER));
    const offset = (deep.page - 1) * LIMIT;
    const naive = await cost({
      text: 'SELECT order_id FROM orders WHERE customer_id = $1 ORDER BY created_at, order_id OFFSET $2 LIMIT $3',
      values: [BIG_CUSTOMER, offset, LIMIT],
    });
    console.log(`      OFFSET ${offset}: ${naive.rows} rows, ${naive.buffers} buffers`);
    expect(naive.rows).to.be.at.least(offset);
  });
});
