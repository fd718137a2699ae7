/**
 * Pickup or delivery, now or later, over HTTP (DECISIONS "Fulfilment"), on the demo store: its
 * zones around Alexanderplatz (Centre: fee 250, minimum 1500; Outer ring: fee 450, minimum 2500).
 * The clock is the test's: Wednesday 2030-01-16, 12:00 UTC; the store is open 11:00–22:00 UTC.
 */
import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import { FakeClock } from '@storefront/testing';
import { call, expectError, expectValidation, getMenu, newCustomer, orderableWithoutOptions, placeOrder, useServer, type ProductJson } from './support.js';
import { staffToken } from './kitchen-support.js';

const NOW = Date.UTC(2030, 0, 16, 12, 0, 0);
const ADDRESS = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postal_code: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring twice' };

describe('e2e: fulfilment (pickup or delivery, now or later)', function () {
  const clock = new FakeClock(NOW);
  const h = useServer({ STOREFRONT_OPENING_HOURS: 'Mo-Su 11:00-22:00', STOREFRONT_SLOT_CAPACITY: '2' }, { clock });
  let dish: ProductJson;
  let token = '';

  before(async function () {
    dish = (await getMenu(h.url)).find(orderableWithoutOptions)!;
    ({ token } = await newCustomer(h, 'fulfilment'));
  });

  const order = (fulfilment: unknown, extra: Record<string, unknown> = {}, quantity = 1) =>
    call(h.url, '/api/orders', { token, json: { items: [{ product_id: dish.product_id, quantity }], fulfilment, ...extra } });

  it('lists the day\'s offered slots, from the lead time on, with the places left', async function () {
    const res = await call(h.url, '/api/store/slots?type=pickup');
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ date: '2030-01-16', time_zone: 'UTC', slot_minutes: 15 });
    expect(res.body.slots[0]).to.deep.equal({ start: '2030-01-16T12:30:00.000Z', end: '2030-01-16T12:45:00.000Z', remaining: 2 });
    const delivery = await call(h.url, '/api/store/slots?type=delivery&date=2030-01-16');
    expect(delivery.body.slots[0].start).to.equal('2030-01-16T12:45:00.000Z');
    expectValidation(await call(h.url, '/api/store/slots?date=16.01.2030'), 'date');
    expectValidation(await call(h.url, '/api/store/slots?type=drone'), 'type');
  });

  it('takes a pre-order for a chosen time, promised for its slot\'s start, and shows it everywhere', async function () {
    const res = await order({ type: 'pickup', time: '2030-01-16T18:07:00+01:00' }, { tip: 150 });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ subtotal: dish.price, delivery_fee: 0, tip: 150, amount: dish.price + 150 });
    expect(res.body.fulfilment).to.deep.equal({ type: 'pickup', time: '2030-01-16T17:07:00.000Z', promised_at: '2030-01-16T17:00:00.000Z' });
    const detail = await call(h.url, `/api/orders/${res.body.order_id}`, { token });
    expect(detail.body.fulfilment).to.deep.equal(res.body.fulfilment);
    const list = await call(h.url, '/api/orders', { token });
    expect(list.body.orders.find((o: { order_id: string }) => o.order_id === res.body.order_id)).to.deep.equal(res.body);
  });

  it('delivers inside a zone for its fee, refuses outside it and below its minimum with the minimum in details', async function () {
    const quote = await call(h.url, `/api/store/delivery-quote?lat=${ADDRESS.lat}&lng=${ADDRESS.lng}`);
    expect(quote.status, quote.text).to.equal(200);
    expect(quote.body).to.deep.equal({ zone: 'Centre', fee: 250, minimum_order: 1500 });
    expectError(await call(h.url, '/api/store/delivery-quote?lat=48.137&lng=11.575'), 422, 'outside_delivery_area');
    expectValidation(await call(h.url, '/api/store/delivery-quote?lat=north&lng=1'), 'lat');

    const quantity = Math.ceil(1500 / dish.price);
    const placed = await order({ type: 'delivery', address: ADDRESS }, { tip: 200 }, quantity);
    expect(placed.status, placed.text).to.equal(201);
    expect(placed.body).to.include({ subtotal: dish.price * quantity, delivery_fee: 250, tip: 200, amount: dish.price * quantity + 450 });
    expect(placed.body.fulfilment).to.deep.include({ type: 'delivery', time: 'asap', promised_at: '2030-01-16T12:45:00.000Z', address: ADDRESS, zone: 'Centre' });

    const below = await order({ type: 'delivery', address: ADDRESS }, {}, 1);
    if (dish.price < 1500) {
      expectError(below, 422, 'below_minimum_order');
      expect(below.body.details).to.deep.equal([{ path: 'items', message: below.body.details[0].message, minimum_order: 1500 }]);
    }
    expectError(await order({ type: 'delivery', address: { ...ADDRESS, lat: 48.137, lng: 11.575 } }), 422, 'outside_delivery_area');
  });

  it('refuses what is not offered with slot_unavailable at fulfilment.time, creating nothing', async function () {
    const before = (await call(h.url, '/api/orders?limit=100', { token })).body.meta.total;
    for (const time of ['2030-01-16T12:10:00Z', '2030-01-16T23:00:00Z', '2030-01-24T12:00:00Z']) {
      const res = await order({ type: 'pickup', time });
      expectError(res, 422, 'slot_unavailable');
      expect(res.body.details[0].path).to.equal('fulfilment.time');
    }
    // Capacity 2: the third order for one slot is refused as full.
    expect((await order({ type: 'pickup', time: '2030-01-17T13:00:00Z' })).status).to.equal(201);
    expect((await order({ type: 'pickup', time: '2030-01-17T13:05:00Z' })).status).to.equal(201);
    const full = await order({ type: 'pickup', time: '2030-01-17T13:10:00Z' });
    expectError(full, 422, 'slot_unavailable');
    expect(full.body.details[0].message).to.match(/full/);
    expect((await call(h.url, '/api/orders?limit=100', { token })).body.meta.total).to.equal(before + 2);
    const slots = await call(h.url, '/api/store/slots?date=2030-01-17');
    expect(slots.body.slots.map((s: { start: string }) => s.start)).not.to.include('2030-01-17T13:00:00.000Z');
  });

  it('refuses unknown or malformed fulfilment fields and tips with 400', async function () {
    expectValidation(await order({ type: 'pickup', when: 'now' }), 'fulfilment.when');
    expectValidation(await order({ type: 'delivery', address: { ...ADDRESS, floor: 3 } }), 'fulfilment.address.floor');
    expectValidation(await order({ type: 'delivery' }), 'fulfilment.address');
    expectValidation(await order({ type: 'boat' }), 'fulfilment.type');
    expectValidation(await order({ type: 'pickup', time: 'noon' }), 'fulfilment.time');
    expectValidation(await order(undefined, { tip: -5 }), 'tip');
    expectValidation(await order(undefined, { tip: 100_001 }), 'tip');
    expectValidation(await order('pickup'), 'fulfilment');
  });

  it('replays a keyed order with its fulfilment, and refuses the key with another fulfilment or tip', async function () {
    const key = { 'Idempotency-Key': `fulfilment-${Date.now()}` };
    const body = { items: [{ product_id: dish.product_id, quantity: 1 }], fulfilment: { type: 'pickup', time: '2030-01-18T12:00:00Z' }, tip: 100 };
    const first = await call(h.url, '/api/orders', { token, json: body, headers: key });
    const replay = await call(h.url, '/api/orders', { token, json: body, headers: key });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.deep.equal(first.body);
    expectError(await call(h.url, '/api/orders', { token, json: { ...body, tip: 0 }, headers: key }), 422, 'idempotency_key_reused');
    expectError(await call(h.url, '/api/orders', { token, json: { ...body, fulfilment: { type: 'pickup', time: '2030-01-18T12:15:00Z' } }, headers: key }), 422, 'idempotency_key_reused');
  });

  it('queues the kitchen by promised time: an order for now before an earlier-placed pre-order for later', async function () {
    const staff = await staffToken(h.url);
    const later = await order({ type: 'pickup', time: '2030-01-16T20:00:00Z' });
    clock.advance(1000);
    const now = await placeOrder(h.url, token, [{ product_id: dish.product_id, quantity: 1 }]);
    const queue = await call(h.url, '/api/staff/orders?status=placed&limit=100', { token: staff });
    const ids = (queue.body.orders as { order_id: string; fulfilment: { promised_at: string } }[]).map((o) => o.order_id);
    expect(ids.indexOf(now.body.order_id)).to.be.lessThan(ids.indexOf(later.body.order_id));
    const promised = (queue.body.orders as { fulfilment: { promised_at: string } }[]).map((o) => o.fulfilment.promised_at);
    expect([...promised].sort()).to.deep.equal(promised);
  });

  it('takes pre-orders while paused and refuses orders for now', async function () {
    const staff = await staffToken(h.url);
    await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, json: { accepting_orders: false } });
    try {
      expectError(await order(undefined), 422, 'store_closed');
      expect((await order({ type: 'pickup', time: '2030-01-19T12:00:00Z' })).status).to.equal(201);
    } finally {
      await call(h.url, '/api/staff/store', { method: 'PATCH', token: staff, json: { accepting_orders: true } });
    }
  });
});
