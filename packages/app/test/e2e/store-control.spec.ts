/**
 * The kitchen's controls over the store, over HTTP: 86-ing a dish (menu, ETag, search, ordering
 * follow at once), pausing ordering, and a store closed by its opening hours.
 */
import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import type { ProductJson } from './support.js';
import { RFC3339_UTC, call, expectError, expectValidation, getMenu, newCustomer, orderableWithoutOptions, placeOrder, useServer } from './support.js';
import { staffToken } from './kitchen-support.js';

describe('e2e: PATCH /api/staff/products/{product_id} ("86 an item")', function () {
  const h = useServer();
  let staff = '';

  before(async function () {
    staff = await staffToken(h.url);
  });

  it('marks a dish unavailable: the menu, its ETag, search and ordering follow at once; and back', async function () {
    const dish = (await getMenu(h.url)).find(orderableWithoutOptions)!;
    const before = await call(h.url, '/api/products');
    const etag = before.headers.get('etag')!;
    const { token } = await newCustomer(h, 'eighty-six');

    const res = await call(h.url, `/api/staff/products/${dish.product_id}`, { method: 'PATCH', token: staff, json: { available: false } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ ...dish, available: false });

    const after = await call(h.url, '/api/products', { headers: { 'If-None-Match': etag } });
    expect(after.status, 'the old ETag no longer matches').to.equal(200);
    expect(after.headers.get('etag')).not.to.equal(etag);
    expect((after.body.products as ProductJson[]).find((p) => p.product_id === dish.product_id)!.available).to.equal(false);
    const search = await call(h.url, `/api/search?q=${encodeURIComponent(dish.name)}`);
    expect((search.body.products as ProductJson[]).find((p) => p.product_id === dish.product_id)!.available).to.equal(false);
    expectError(await placeOrder(h.url, token, [{ product_id: dish.product_id, quantity: 1 }]), 422, 'product_unavailable');

    const back = await call(h.url, `/api/staff/products/${dish.product_id}`, { method: 'PATCH', token: staff, json: { available: true } });
    expect(back.body.available).to.equal(true);
    expect((await placeOrder(h.url, token, [{ product_id: dish.product_id, quantity: 1 }])).status).to.equal(201);
  });

  it('answers a body without a boolean `available`, or with another field, 400; an unknown product 404', async function () {
    const dish = (await getMenu(h.url))[0]!;
    const patch = (json: unknown, id = dish.product_id) => call(h.url, `/api/staff/products/${id}`, { method: 'PATCH', token: staff, json });
    expectValidation(await patch({}), 'available');
    expectValidation(await patch({ available: 'false' }), 'available');
    expectValidation(await patch({ available: false, price: 1 }), 'price');
    expectError(await call(h.url, `/api/staff/products/${dish.product_id}`, { method: 'PATCH', token: staff, body: 'available=false', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
    expectError(await patch({ available: false }, 'prd_00000000000000000000'), 404, 'not_found');
    expectError(await patch({ available: false }, 'nothing-like-an-id'), 404, 'not_found');
    expect((await getMenu(h.url)).find((p) => p.product_id === dish.product_id)).to.deep.equal(dish);
  });
});

describe('e2e: pausing ordering (PATCH /api/staff/store)', function () {
  const h = useServer({ STOREFRONT_NAME: 'Trattoria E2E' });

  it('pauses: POST /api/orders 422 store_closed creating nothing, a key replay still replays, GET /api/store says so; resume → 201', async function () {
    const staff = await staffToken(h.url);
    const { token } = await newCustomer(h, 'paused');
    const dish = (await getMenu(h.url)).find(orderableWithoutOptions)!;
    const items = [{ product_id: dish.product_id, quantity: 1 }];
    const placed = await placeOrder(h.url, token, items, { 'Idempotency-Key': 'before-the-pause' });
    expect(placed.status).to.equal(201);

    const paused = await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, json: { accepting_orders: false } });
    expect(paused.status, paused.text).to.equal(200);
    expect(paused.body).to.include({ name: 'Trattoria E2E', accepting_orders: false, open_now: true });

    expectError(await placeOrder(h.url, token, items), 422, 'store_closed');
    const replay = await placeOrder(h.url, token, items, { 'Idempotency-Key': 'before-the-pause' });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.order_id).to.equal(placed.body.order_id);
    expect((await call(h.url, '/api/orders', { token })).body.meta.total).to.equal(1);
    expect((await call(h.url, '/api/store')).body).to.deep.equal({
      name: 'Trattoria E2E',
      currency: 'USD',
      prices_include_tax: true,
      time_zone: 'UTC',
      open_now: true,
      accepting_orders: false,
      opening_hours: null,
      next_change_at: null,
    });

    const resumed = await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, json: { accepting_orders: true } });
    expect(resumed.body.accepting_orders).to.equal(true);
    expect((await placeOrder(h.url, token, items)).status).to.equal(201);
    expect((await call(h.url, '/api/store')).body.accepting_orders).to.equal(true);
  });

  it('answers a body without a boolean accepting_orders, or with another field, 400', async function () {
    const staff = await staffToken(h.url);
    for (const json of [{}, { accepting_orders: 'no' }, { accepting_orders: false, until: '18:00' }]) {
      expectError(await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, json }), 400, 'validation_failed');
    }
    expectError(await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, body: '{"accepting_orders":', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    expect((await call(h.url, '/api/store')).body.accepting_orders).to.equal(true);
  });
});

describe('e2e: a store closed by its opening hours', function () {
  // Open one hour, three days from today (in UTC; Berlin is at most a day away): closed now.
  const DAYS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
  const openDay = DAYS[(new Date().getUTCDay() + 3) % 7]!;
  const schedule = `${openDay} 10:00-11:00`;
  const h = useServer({ STOREFRONT_OPENING_HOURS: schedule, STOREFRONT_TIME_ZONE: 'Europe/Berlin' });

  it('answers POST /api/orders 422 store_closed, and GET /api/store open_now false with the next opening', async function () {
    const { token } = await newCustomer(h, 'closed');
    const dish = (await getMenu(h.url)).find(orderableWithoutOptions)!;
    const refused = await placeOrder(h.url, token, [{ product_id: dish.product_id, quantity: 1 }]);
    expectError(refused, 422, 'store_closed');
    expect((await call(h.url, '/api/orders', { token })).body.meta.total).to.equal(0);

    const store = await call(h.url, '/api/store');
    expect(store.status).to.equal(200);
    expect(store.body).to.include({ time_zone: 'Europe/Berlin', open_now: false, accepting_orders: true, opening_hours: schedule });
    expect(store.body.next_change_at).to.match(RFC3339_UTC);
    const opens = new Date(store.body.next_change_at as string);
    expect(opens.getTime() - Date.now()).to.be.within(24 * 3600_000, 5 * 24 * 3600_000);
    // 10:00 in Berlin is 08:00 or 09:00 UTC (summer or winter time).
    expect(opens.getUTCHours()).to.be.oneOf([8, 9]);
    expect(opens.getUTCMinutes()).to.equal(0);
  });
});
