/** GET /api/orders/{order_id} (owner or staff, ETag/304) and POST /api/orders/{order_id}/cancel (the owner's). */
import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import { BOB, call, expectError, expectUnauthorized, expectValidation, login, useServer } from './support.js';
import type { OrderJson } from './kitchen-support.js';
import { aPlacedOrder, move, staffToken } from './kitchen-support.js';

describe('e2e: GET /api/orders/{order_id}', function () {
  const h = useServer();
  let staff = '';
  let bob = '';

  before(async function () {
    staff = await staffToken(h.url);
    bob = (await login(h.url, BOB.email, BOB.password)).access_token;
  });

  it('answers the owner and staff 200 with the order and ETag "<version>", private to the caller', async function () {
    const { token, order } = await aPlacedOrder(h);
    for (const caller of [token, staff]) {
      const res = await call(h.url, `/api/orders/${order.order_id}`, { token: caller });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal(order);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.headers.get('cache-control')).to.equal('private, no-cache');
    }
  });

  it('answers 304 without a body to If-None-Match of the current version, and 200 once the order has moved', async function () {
    const { token, order } = await aPlacedOrder(h);
    const unchanged = await call(h.url, `/api/orders/${order.order_id}`, { token, headers: { 'If-None-Match': '"1"' } });
    expect(unchanged.status).to.equal(304);
    expect(unchanged.text).to.equal('');
    expect(unchanged.headers.get('etag')).to.equal('"1"');
    expect((await move(h.url, staff, order.order_id, 'accepted')).status).to.equal(200);
    const moved = await call(h.url, `/api/orders/${order.order_id}`, { token, headers: { 'If-None-Match': '"1"' } });
    expect(moved.status).to.equal(200);
    expect(moved.headers.get('etag')).to.equal('"2"');
    expect(moved.body).to.include({ status: 'accepted', version: 2 });
  });

  it('answers another customer, an unknown id and an id that cannot be one 404 not_found, alike', async function () {
    const { order } = await aPlacedOrder(h);
    const stranger = await call(h.url, `/api/orders/${order.order_id}`, { token: bob });
    expectError(stranger, 404, 'not_found');
    const unknown = await call(h.url, '/api/orders/ord_00000000000000000000000000', { token: bob });
    expectError(unknown, 404, 'not_found');
    expect(unknown.body).to.deep.equal(stranger.body);
    for (const odd of [`ord_${'z'.repeat(500)}`, 'ORD_1', 'ord_%F0%9F%8D%95', 'ord_%00', 'ord_a.b', '%E0%A4%A', 'ord_%ZZ']) {
      expectError(await call(h.url, `/api/orders/${odd}`, { token: staff }), 404, 'not_found');
    }
  });

  it('answers an anonymous request 401', async function () {
    const { order } = await aPlacedOrder(h);
    expectUnauthorized(await call(h.url, `/api/orders/${order.order_id}`), 'unauthorized');
  });
});

describe('e2e: POST /api/orders/{order_id}/cancel', function () {
  const h = useServer();
  let staff = '';
  let bob = '';
  const cancel = (token: string, orderId: string, json?: unknown) => call(h.url, `/api/orders/${orderId}/cancel`, { method: 'POST', token, json });

  before(async function () {
    staff = await staffToken(h.url);
    bob = (await login(h.url, BOB.email, BOB.password)).access_token;
  });

  it('cancels a placed order for its owner (200), and answers a second cancel 200 with the same order', async function () {
    const { token, order } = await aPlacedOrder(h);
    const first = await cancel(token, order.order_id);
    expect(first.status, first.text).to.equal(200);
    const cancelled = first.body as OrderJson;
    expect(cancelled).to.include({ order_id: order.order_id, status: 'cancelled', version: 2 });
    expect(cancelled.status_history.map((s) => s.status)).to.deep.equal(['placed', 'cancelled']);
    expect(cancelled).not.to.have.property('reason');
    const again = await cancel(token, order.order_id, {});
    expect(again.status, again.text).to.equal(200);
    expect(again.body).to.deep.equal(cancelled);
  });

  it('answers 409 invalid_transition once the kitchen has accepted the order, leaving it accepted', async function () {
    const { token, order } = await aPlacedOrder(h);
    expect((await move(h.url, staff, order.order_id, 'accepted')).status).to.equal(200);
    const res = await cancel(token, order.order_id);
    expectError(res, 409, 'invalid_transition');
    expect(res.body.message).to.include('accepted');
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token })).body.status).to.equal('accepted');
  });

  it("answers someone else's order 404 (staff included: the kitchen cancels through its own route), changing nothing", async function () {
    const { token, order } = await aPlacedOrder(h);
    expectError(await cancel(bob, order.order_id), 404, 'not_found');
    expectError(await cancel(staff, order.order_id), 404, 'not_found');
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token })).body.status).to.equal('placed');
  });

  it('refuses a body with a field (400), and an id that cannot be one (404)', async function () {
    const { token, order } = await aPlacedOrder(h);
    expectValidation(await cancel(token, order.order_id, { reason: 'changed my mind' }), 'reason');
    expectError(await cancel(token, 'ord_!'), 404, 'not_found');
    expect((await call(h.url, `/api/orders/${order.order_id}`, { token })).body.status).to.equal('placed');
  });
});
