/**
 * The kitchen over HTTP: roles on the staff routes, the order lifecycle (every legal and illegal
 * move, races between kitchen screens, If-Match), and the staff queue.
 */
import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import { ALICE, RFC3339_UTC, call, expectError, expectUnauthorized, expectValidation, login, useServer } from './support.js';
import type { OrderJson, OrderStatus } from './kitchen-support.js';
import { KITCHEN, STATUSES, aPlacedOrder, move, staffToken, walkTo } from './kitchen-support.js';

/** The staff moves of DECISIONS "Order lifecycle"; every other (from, to) is invalid_transition. */
const LEGAL: readonly string[] = [
  'placed>accepted',
  'accepted>preparing',
  'preparing>ready',
  'ready>completed',
  'placed>rejected',
  'placed>cancelled',
  'accepted>cancelled',
  'preparing>cancelled',
];

describe('e2e: staff routes and roles', function () {
  const h = useServer();

  it('tells an account its role in GET /api/me: customer, or staff for the kitchen account', async function () {
    const alice = await login(h.url, ALICE.email, ALICE.password);
    expect((await call(h.url, '/api/me', { token: alice.access_token })).body.role).to.equal('customer');
    const kitchen = await call(h.url, '/api/me', { token: await staffToken(h.url) });
    expect(kitchen.body).to.include({ email: KITCHEN.email, role: 'staff' });
  });

  it('answers every staff route 401 with a Bearer challenge without a token, and 403 forbidden to a customer', async function () {
    const alice = (await login(h.url, ALICE.email, ALICE.password)).access_token;
    const { order } = await aPlacedOrder(h);
    const product = (await call(h.url, '/api/products')).body.products[0].product_id as string;
    const routes: [string, string, unknown][] = [
      ['GET', '/api/staff/orders', undefined],
      ['POST', `/api/staff/orders/${order.order_id}/status`, { status: 'accepted' }],
      ['PATCH', `/api/staff/products/${product}`, { available: false }],
      ['PATCH', '/api/staff/store', { accepting_orders: false }],
    ];
    for (const [method, path, json] of routes) {
      expectUnauthorized(await call(h.url, path, { method, json }), 'unauthorized');
      expectError(await call(h.url, path, { method, json, token: alice }), 403, 'forbidden');
    }
    // Nothing a refused request asked for happened.
    const staff = await staffToken(h.url);
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token: staff })).body.status).to.equal('placed');
    expect((await call(h.url, '/api/store')).body.accepting_orders).to.equal(true);
  });

  it('answers another method on a staff path 405 with Allow', async function () {
    const res = await call(h.url, '/api/staff/store', { method: 'GET' });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.equal('PATCH');
  });
});

describe('e2e: the order lifecycle', function () {
  const h = useServer();
  let staff = '';

  before(async function () {
    staff = await staffToken(h.url);
  });

  it('walks an order placed → accepted → preparing → ready → completed, each move in its history', async function () {
    const { token, order } = await aPlacedOrder(h);
    expect(order).to.include({ status: 'placed', version: 1 });
    expect(order.updated_at).to.equal(order.created_at);
    expect(order.status_history).to.deep.equal([{ status: 'placed', at: order.created_at }]);
    let last = order;
    for (const [i, status] of (['accepted', 'preparing', 'ready', 'completed'] as const).entries()) {
      const res = await move(h.url, staff, order.order_id, status);
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('etag')).to.equal(`"${i + 2}"`);
      const moved = res.body as OrderJson;
      expect(moved).to.include({ order_id: order.order_id, status, version: i + 2 });
      expect(moved.updated_at).to.match(RFC3339_UTC);
      expect(Date.parse(moved.updated_at)).to.be.at.least(Date.parse(last.updated_at));
      expect(moved.status_history.at(-1)).to.deep.equal({ status, at: moved.updated_at });
      last = moved;
    }
    expect(last.status_history.map((s) => s.status)).to.deep.equal(['placed', 'accepted', 'preparing', 'ready', 'completed']);
    expect(last).not.to.have.property('reason');
    // The owner sees the same order, in the detail and in the list.
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token })).body).to.deep.equal(last);
    expect((await call(h.url, '/api/orders', { token })).body.orders).to.deep.equal([last]);
  });

  it('rejects with a reason, which the order then carries; without one, 400 naming reason', async function () {
    const { order } = await aPlacedOrder(h);
    expectValidation(await move(h.url, staff, order.order_id, 'rejected'), 'reason');
    expectValidation(await move(h.url, staff, order.order_id, 'rejected', { reason: ' '.repeat(3) }), 'reason');
    expectValidation(await move(h.url, staff, order.order_id, 'rejected', { reason: 'x'.repeat(201) }), 'reason');
    const res = await move(h.url, staff, order.order_id, 'rejected', { reason: 'Out of falafel' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ status: 'rejected', version: 2, reason: 'Out of falafel' });
  });

  it('refuses every illegal move with 409 invalid_transition naming the current status, changing nothing', async function () {
    this.timeout(60_000);
    for (const from of STATUSES) {
      const { order } = await aPlacedOrder(h);
      const at = await walkTo(h.url, staff, order.order_id, from);
      for (const to of STATUSES) {
        if (LEGAL.includes(`${from}>${to}`)) continue;
        const reason = to === 'rejected' || to === 'cancelled' ? { reason: 'because' } : {};
        const res = await move(h.url, staff, order.order_id, to, reason);
        expectError(res, 409, 'invalid_transition');
        expect(res.body.message, `${from} → ${to}`).to.include(from);
      }
      const after = await call(h.url, `/api/orders/${order.order_id}`, { token: staff });
      expect(after.body, from).to.deep.equal(at);
    }
  });

  it('lets exactly one of several concurrent moves of one order win; the others get 409', async function () {
    const { order } = await aPlacedOrder(h);
    const answers = await Promise.all(Array.from({ length: 8 }, () => move(h.url, staff, order.order_id, 'accepted')));
    expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 409, 409, 409, 409, 409, 409, 409]);
    const after = (await call(h.url, `/api/orders/${order.order_id}`, { token: staff })).body as OrderJson;
    expect(after.version).to.equal(2);
    expect(after.status_history.map((s) => s.status)).to.deep.equal(['placed', 'accepted']);
  });

  it('lets exactly one of several concurrent moves with the same If-Match win; the others get 412', async function () {
    const { order } = await aPlacedOrder(h);
    // Different targets from one version: without the compare-and-set they could all apply.
    const targets = ['accepted', 'rejected', 'cancelled', 'accepted', 'rejected', 'cancelled'];
    const answers = await Promise.all(targets.map((to) => move(h.url, staff, order.order_id, to, to === 'accepted' ? { ifMatch: '"1"' } : { ifMatch: '"1"', reason: 'busy' })));
    expect(answers.filter((r) => r.status === 200), answers.map((r) => r.text).join('\n')).to.have.length(1);
    for (const res of answers.filter((r) => r.status !== 200)) expectError(res, 412, 'precondition_failed');
    const after = (await call(h.url, `/api/orders/${order.order_id}`, { token: staff })).body as OrderJson;
    expect(after.version).to.equal(2);
    expect(after.status_history).to.have.length(2);
  });

  it('moves with If-Match of the current version (strong or weak), and answers 412 to a stale one', async function () {
    const { order } = await aPlacedOrder(h);
    const accepted = await move(h.url, staff, order.order_id, 'accepted', { ifMatch: '"1"' });
    expect(accepted.status, accepted.text).to.equal(200);
    const stale = await move(h.url, staff, order.order_id, 'preparing', { ifMatch: '"1"' });
    expectError(stale, 412, 'precondition_failed');
    expect(stale.body.message).to.include('accepted');
    const current = await move(h.url, staff, order.order_id, 'preparing', { ifMatch: 'W/"2"' });
    expect(current.status, current.text).to.equal(200);
    expect(current.body).to.include({ status: 'preparing', version: 3 });
    expect((await move(h.url, staff, order.order_id, 'ready', { ifMatch: '*' })).status).to.equal(200);
  });

  it('answers a malformed If-Match, an unknown status and an unknown field 400, and an unknown order 404', async function () {
    const { order } = await aPlacedOrder(h);
    for (const ifMatch of ['1', '"1", "2"', '"v1"']) expectValidation(await move(h.url, staff, order.order_id, 'accepted', { ifMatch }), 'If-Match');
    expectValidation(await move(h.url, staff, order.order_id, 'eaten'), 'status');
    expectValidation(await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'accepted', by: 'me' } }), 'by');
    expectValidation(await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, method: 'POST' }), 'status');
    expectError(await move(h.url, staff, 'ord_00000000000000000000000000', 'accepted'), 404, 'not_found');
    expectError(await move(h.url, staff, 'ord_%2e%2e', 'accepted'), 404, 'not_found');
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token: staff })).body.version).to.equal(1);
  });
});

describe('e2e: GET /api/staff/orders', function () {
  const h = useServer();
  let staff = '';
  const mine: Partial<Record<OrderStatus, string>> = {};

  /** Every order of the queue for `query`, following the Link header from the first page. */
  async function queue(query: string): Promise<OrderJson[]> {
    const out: OrderJson[] = [];
    let path: string | null = `/api/staff/orders${query}`;
    while (path !== null) {
      const res = await call(h.url, path, { token: staff });
      expect(res.status, res.text).to.equal(200);
      out.push(...(res.body.orders as OrderJson[]));
      const link = res.headers.get('link');
      expect(link === null, 'a Link exactly when there is a next page').to.equal(res.body.meta.next_page === null);
      path = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
    }
    return out;
  }

  before(async function () {
    this.timeout(30_000);
    staff = await staffToken(h.url);
    for (const status of STATUSES) {
      const { order } = await aPlacedOrder(h);
      await walkTo(h.url, staff, order.order_id, status);
      mine[status] = order.order_id;
    }
  });

  it('lists the open orders of every customer by default, oldest first', async function () {
    const orders = await queue('?limit=2');
    expect(new Set(orders.map((o) => o.status))).to.satisfy((s: Set<string>) => [...s].every((x) => ['placed', 'accepted', 'preparing', 'ready'].includes(x)));
    const ids = orders.map((o) => o.order_id);
    for (const status of ['placed', 'accepted', 'preparing', 'ready'] as const) expect(ids, status).to.include(mine[status]);
    for (const status of ['completed', 'rejected', 'cancelled'] as const) expect(ids, status).not.to.include(mine[status]);
    const keys = orders.map((o) => `${o.created_at} ${o.order_id}`);
    expect(keys).to.deep.equal([...keys].sort());
    expect(new Set(ids).size, 'no order twice across pages').to.equal(ids.length);
  });

  it('filters by status=ready,completed, and keeps the filter in the Link to the next page', async function () {
    const first = await call(h.url, '/api/staff/orders?status=ready,completed&limit=1', { token: staff });
    expect(first.headers.get('link')).to.equal('</api/staff/orders?status=ready%2Ccompleted&page=2&limit=1>; rel="next"');
    const orders = await queue('?status=ready,completed&limit=1');
    expect([...new Set(orders.map((o) => o.status))].sort()).to.deep.equal(['completed', 'ready']);
    expect(orders.map((o) => o.order_id)).to.include.members([mine.ready, mine.completed]);
  });

  it('answers an unknown status 400 naming status, and a status given twice 400', async function () {
    expectValidation(await call(h.url, '/api/staff/orders?status=ready,eaten', { token: staff }), 'status');
    expectValidation(await call(h.url, '/api/staff/orders?status=ready&status=placed', { token: staff }), 'status');
    expectValidation(await call(h.url, '/api/staff/orders?limit=0', { token: staff }), 'limit');
  });
});
