import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import type { ProductJson, Res } from './support.js';
import {
  ALICE,
  RFC3339_UTC,
  allOrders,
  availableProducts,
  call,
  expectError,
  expectJson,
  expectUnauthorized,
  expectValidation,
  getMenu,
  login,
  newCustomer,
  orderCount,
  placeOrder,
  useServer,
} from './support.js';

const ORDER_KEYS = ['amount', 'created_at', 'currency', 'delivery_fee', 'fulfilment', 'items', 'order_id', 'payment', 'prices_include_tax', 'status', 'status_history', 'subtotal', 'tax_total', 'taxes', 'tip', 'updated_at', 'version'];
const LINE_KEYS = ['line_total', 'name', 'options', 'product_id', 'quantity', 'tax_rate', 'unit_price'];

interface LineJson {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  line_total: number;
}

function expectOrderShape(order: Record<string, unknown>): void {
  expect(Object.keys(order).sort(), JSON.stringify(order)).to.deep.equal(ORDER_KEYS);
  expect(order['order_id']).to.be.a('string').and.match(/^ord_[A-Za-z0-9]{16,}$/);
  expect(Number.isInteger(order['amount'])).to.equal(true);
  expect(order['currency']).to.match(/^[A-Z]{3}$/);
  expect(order['created_at']).to.match(RFC3339_UTC);
  expect(order['items']).to.be.an('array').that.is.not.empty;
  for (const line of order['items'] as Record<string, unknown>[]) expect(Object.keys(line).sort()).to.deep.equal(LINE_KEYS);
}

describe('e2e: POST /api/orders', function () {
  const h = useServer();
  let menu: ProductJson[] = [];
  let available: ProductJson[] = [];
  let unavailable: ProductJson | undefined;
  let alice = '';

  before(async function () {
    menu = await getMenu(h.url);
    available = await availableProducts(h.url);
    unavailable = menu.find((p) => !p.available);
    alice = (await login(h.url, ALICE.email, ALICE.password)).access_token;
  });

  const p = (i: number): ProductJson => available[i % available.length]!;

  it('answers 201 with the order priced from the menu', async function () {
    const before = Date.now();
    const items = [
      { product_id: p(0).product_id, quantity: 2 },
      { product_id: p(1).product_id, quantity: 1 },
      { product_id: p(2).product_id, quantity: 3 },
    ];
    const res = await placeOrder(h.url, alice, items);
    expect(res.status, res.text).to.equal(201);
    expectJson(res);
    expectOrderShape(res.body);
    const lines = res.body.items as LineJson[];
    expect(lines.map((l) => [l.product_id, l.quantity])).to.deep.equal(items.map((i) => [i.product_id, i.quantity]));
    lines.forEach((line, i) => {
      expect(line.name).to.equal(p(i).name);
      expect(line.unit_price).to.equal(p(i).price);
      expect(line.line_total).to.equal(p(i).price * line.quantity);
    });
    expect(res.body.amount).to.equal(lines.reduce((sum, l) => sum + l.line_total, 0));
    expect(res.body.currency).to.equal(p(0).currency);
    const created = Date.parse(res.body.created_at);
    expect(created).to.be.within(before - 2000, Date.now() + 2000);
  });

  it('sends Cache-Control: no-store on the created order', async function () {
    const res = await placeOrder(h.url, alice, [{ product_id: p(0).product_id, quantity: 1 }]);
    expect(res.status).to.equal(201);
    expect(res.headers.get('cache-control') ?? '').to.include('no-store');
  });

  it('gives every order a distinct id and lists it for its customer with the same body', async function () {
    const c = await newCustomer(h, 'order-list');
    const a = await placeOrder(h.url, c.token, [{ product_id: p(3).product_id, quantity: 4 }]);
    const b = await placeOrder(h.url, c.token, [{ product_id: p(3).product_id, quantity: 4 }]);
    expect(a.status).to.equal(201);
    expect(b.status).to.equal(201);
    expect(a.body.order_id).not.to.equal(b.body.order_id);
    const list = await call(h.url, '/api/orders', { token: c.token });
    expect(list.body.orders).to.deep.equal([a.body, b.body]);
  });

  it('keeps two lines of the same product as two lines, priced separately', async function () {
    const res = await placeOrder(h.url, alice, [
      { product_id: p(0).product_id, quantity: 2 },
      { product_id: p(0).product_id, quantity: 3 },
    ]);
    expect(res.status, res.text).to.equal(201);
    expect((res.body.items as LineJson[]).map((l) => [l.product_id, l.quantity, l.line_total])).to.deep.equal([
      [p(0).product_id, 2, p(0).price * 2],
      [p(0).product_id, 3, p(0).price * 3],
    ]);
    expect(res.body.amount).to.equal(p(0).price * 5);
  });

  it('accepts the bounds: 50 lines, quantity 1 and quantity 99', async function () {
    const lines = Array.from({ length: 50 }, (_, i) => ({ product_id: p(i).product_id, quantity: i === 0 ? 99 : 1 }));
    const res = await placeOrder(h.url, alice, lines);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.items).to.have.length(50);
    expect(res.body.items[0].quantity).to.equal(99);
    expect(res.body.items[0].line_total).to.equal(p(0).price * 99);
  });

  it('answers 401 unauthorized with a Bearer challenge to an anonymous order', async function () {
    const res = await call(h.url, '/api/orders', { json: { items: [{ product_id: p(0).product_id, quantity: 1 }] } });
    expectUnauthorized(res, 'unauthorized');
  });

  it('rejects an order without lines or with more than 50 lines with 400 validation_failed', async function () {
    expectValidation(await placeOrder(h.url, alice, []), 'items');
    const lines = Array.from({ length: 51 }, (_, i) => ({ product_id: p(i).product_id, quantity: 1 }));
    expectValidation(await placeOrder(h.url, alice, lines), 'items');
    expectValidation(await call(h.url, '/api/orders', { json: {}, token: alice }), 'items');
    expectValidation(await placeOrder(h.url, alice, 'everything'), 'items');
    expectValidation(await placeOrder(h.url, alice, { product_id: p(0).product_id, quantity: 1 }), 'items');
  });

  it('rejects quantities 0, 100, 1.5, "2", -1 and null with 400 validation_failed naming the line', async function () {
    for (const quantity of [0, 100, 1.5, '2', -1, null]) {
      const res = await placeOrder(h.url, alice, [{ product_id: p(0).product_id, quantity }]);
      expectValidation(res, 'items.0.quantity');
    }
    const second = await placeOrder(h.url, alice, [
      { product_id: p(0).product_id, quantity: 1 },
      { product_id: p(1).product_id, quantity: 0 },
    ]);
    expectValidation(second, 'items.1.quantity');
  });

  it('rejects a missing quantity or product id with 400 validation_failed', async function () {
    expectValidation(await placeOrder(h.url, alice, [{ product_id: p(0).product_id }]), 'items.0.quantity');
    expectValidation(await placeOrder(h.url, alice, [{ quantity: 1 }]), 'items.0.product_id');
    expectValidation(await placeOrder(h.url, alice, [{ product_id: 42, quantity: 1 }]), 'items.0.product_id');
    expectValidation(await placeOrder(h.url, alice, ['prd_x']), 'items.0');
  });

  it('rejects an unknown top-level field with 400', async function () {
    const res = await call(h.url, '/api/orders', {
      json: { items: [{ product_id: p(0).product_id, quantity: 1 }], coupon: 'FREE' },
      token: alice,
    });
    expectValidation(res);
    expect(res.text).to.include('coupon');
  });

  it('rejects an unknown field in a line, such as a client price, with 400', async function () {
    const res = await placeOrder(h.url, alice, [{ product_id: p(0).product_id, quantity: 1, unit_price: 1 }]);
    expectValidation(res);
    expect(res.text).to.include('unit_price');
    const proto = await call(h.url, '/api/orders', {
      method: 'POST',
      body: `{"items":[{"product_id":"${p(0).product_id}","quantity":1,"__proto__":{"admin":true}}]}`,
      headers: { 'Content-Type': 'application/json' },
      token: alice,
    });
    expect(proto.status, proto.text).to.equal(400);
  });

  it('answers 422 unknown_product to a product that is not on the menu', async function () {
    const res = await placeOrder(h.url, alice, [
      { product_id: p(0).product_id, quantity: 1 },
      { product_id: 'prd_doesnotexist000000', quantity: 1 },
    ]);
    expectError(res, 422, 'unknown_product');
  });

  it('answers 422 product_unavailable to an unavailable product', async function () {
    expect(unavailable, 'the demo menu has an unavailable dish').not.to.equal(undefined);
    const res = await placeOrder(h.url, alice, [{ product_id: unavailable!.product_id, quantity: 1 }]);
    expectError(res, 422, 'product_unavailable');
  });

  it('changes nothing when it rejects an order', async function () {
    const c = await newCustomer(h, 'rejected');
    expect((await placeOrder(h.url, c.token, [{ product_id: p(0).product_id, quantity: 1 }])).status).to.equal(201);
    const attempts: Res[] = await Promise.all([
      placeOrder(h.url, c.token, []),
      placeOrder(h.url, c.token, [{ product_id: p(0).product_id, quantity: 100 }]),
      placeOrder(h.url, c.token, [{ product_id: 'prd_doesnotexist000000', quantity: 1 }]),
      placeOrder(h.url, c.token, [{ product_id: p(0).product_id, quantity: 1 }, { product_id: unavailable!.product_id, quantity: 1 }]),
      call(h.url, '/api/orders', { method: 'POST', body: '{"items":', headers: { 'Content-Type': 'application/json' }, token: c.token }),
      call(h.url, '/api/orders', { method: 'POST', body: 'items=1', headers: { 'Content-Type': 'text/plain' }, token: c.token }),
    ]);
    const expected: [number, string][] = [
      [400, 'validation_failed'],
      [400, 'validation_failed'],
      [422, 'unknown_product'],
      [422, 'product_unavailable'],
      [400, 'invalid_json'],
      [415, 'unsupported_media_type'],
    ];
    for (const [i, a] of attempts.entries()) expectError(a, ...expected[i]!);
    expect(await orderCount(h.url, c.token)).to.equal(1);
  });

  it('places 60 concurrent orders of one customer exactly once each', async function () {
    this.timeout(20_000);
    const c = await newCustomer(h, 'concurrent');
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => placeOrder(h.url, c.token, [{ product_id: p(i).product_id, quantity: (i % 5) + 1 }])),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(60).fill(201));
    const ids = results.map((r) => r.body.order_id as string);
    expect(new Set(ids).size).to.equal(60);
    const listed = await allOrders(h.url, c.token);
    expect(listed).to.have.length(60);
    expect(listed.map((o) => o.order_id)).to.have.members(ids);
    expect(await orderCount(h.url, c.token)).to.equal(60);
  });
});

describe('e2e: POST /api/orders with Idempotency-Key', function () {
  const h = useServer();
  let available: ProductJson[] = [];
  before(async function () {
    available = await availableProducts(h.url);
  });
  const line = (i: number, quantity = 1) => ({ product_id: available[i % available.length]!.product_id, quantity });
  let keySeq = 0;
  const freshKey = () => `e2e-key-${Date.now()}-${++keySeq}`;

  it('replays the first response with Idempotent-Replayed: true and creates nothing', async function () {
    const c = await newCustomer(h, 'idem');
    const key = freshKey();
    const first = await placeOrder(h.url, c.token, [line(0, 2), line(1)], { 'Idempotency-Key': key });
    expect(first.status, first.text).to.equal(201);
    expect(first.headers.get('idempotent-replayed')).not.to.equal('true');
    const again = await placeOrder(h.url, c.token, [line(0, 2), line(1)], { 'Idempotency-Key': key });
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await orderCount(h.url, c.token)).to.equal(1);
  });

  it('replays for the same customer logged in from another session', async function () {
    const c = await newCustomer(h, 'idem-session');
    const key = freshKey();
    const first = await placeOrder(h.url, c.token, [line(1, 2)], { 'Idempotency-Key': key });
    expect(first.status).to.equal(201);
    const other = await login(h.url, c.email, c.password);
    const again = await placeOrder(h.url, other.access_token, [line(1, 2)], { 'Idempotency-Key': key });
    expect(again.status).to.equal(201);
    expect(again.body.order_id).to.equal(first.body.order_id);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await orderCount(h.url, c.token)).to.equal(1);
  });

  it('places a new order for a new key with the same body', async function () {
    const c = await newCustomer(h, 'idem-new');
    const a = await placeOrder(h.url, c.token, [line(0)], { 'Idempotency-Key': freshKey() });
    const b = await placeOrder(h.url, c.token, [line(0)], { 'Idempotency-Key': freshKey() });
    expect(a.status).to.equal(201);
    expect(b.status).to.equal(201);
    expect(a.body.order_id).not.to.equal(b.body.order_id);
    expect(await orderCount(h.url, c.token)).to.equal(2);
  });

  it('answers 422 idempotency_key_reused to the same key with a different body, creating nothing', async function () {
    const c = await newCustomer(h, 'idem-reuse');
    const key = freshKey();
    expect((await placeOrder(h.url, c.token, [line(0)], { 'Idempotency-Key': key })).status).to.equal(201);
    expectError(await placeOrder(h.url, c.token, [line(0, 2)], { 'Idempotency-Key': key }), 422, 'idempotency_key_reused');
    expectError(await placeOrder(h.url, c.token, [line(1)], { 'Idempotency-Key': key }), 422, 'idempotency_key_reused');
    expect(await orderCount(h.url, c.token)).to.equal(1);
  });

  it('scopes keys to the customer: another customer with the same key gets an order of its own', async function () {
    const a = await newCustomer(h, 'idem-a');
    const b = await newCustomer(h, 'idem-b');
    const key = freshKey();
    const first = await placeOrder(h.url, a.token, [line(2)], { 'Idempotency-Key': key });
    const second = await placeOrder(h.url, b.token, [line(2)], { 'Idempotency-Key': key });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(201);
    expect(second.body.order_id).not.to.equal(first.body.order_id);
    expect(second.headers.get('idempotent-replayed')).not.to.equal('true');
    expect((await allOrders(h.url, b.token)).map((o) => o.order_id)).to.deep.equal([second.body.order_id]);
    const differentBody = await placeOrder(h.url, b.token, [line(3)], { 'Idempotency-Key': `${key}-b` });
    expect(differentBody.status).to.equal(201);
  });

  it('accepts a key of 255 visible ASCII characters', async function () {
    const c = await newCustomer(h, 'idem-long');
    const key = `!~${Date.now()}-`.padEnd(255, 'k');
    expect(key).to.have.length(255);
    expect((await placeOrder(h.url, c.token, [line(0)], { 'Idempotency-Key': key })).status).to.equal(201);
  });

  it('rejects an empty, over-long or non-visible-ASCII key with 400 and creates nothing', async function () {
    const c = await newCustomer(h, 'idem-bad');
    const bad = ['', 'k'.repeat(256), 'has space', 'tab\there', 'caf\u00e9'];
    for (const key of bad) {
      const res = await call(h.url, '/api/orders', {
        json: { items: [line(0)] },
        token: c.token,
        headers: { 'Idempotency-Key': key },
        localAddress: '127.0.0.1',
      });
      expect(res.status, `key ${JSON.stringify(key)}: ${res.text}`).to.equal(400);
      expectError(res, 400, 'validation_failed');
    }
    expect(await orderCount(h.url, c.token)).to.equal(0);
  });

  it('does not hold a key whose request was rejected', async function () {
    const c = await newCustomer(h, 'idem-rejected');
    const key = freshKey();
    expectError(await placeOrder(h.url, c.token, [{ product_id: 'prd_doesnotexist000000', quantity: 1 }], { 'Idempotency-Key': key }), 422, 'unknown_product');
    expectValidation(await placeOrder(h.url, c.token, [line(0, 0)], { 'Idempotency-Key': key }), 'items.0.quantity');
    const ok = await placeOrder(h.url, c.token, [line(0)], { 'Idempotency-Key': key });
    expect(ok.status, ok.text).to.equal(201);
    expect(ok.headers.get('idempotent-replayed')).not.to.equal('true');
    expect(await orderCount(h.url, c.token)).to.equal(1);
  });

  it('creates exactly one order from concurrent requests with the same key and different bodies', async function () {
    const c = await newCustomer(h, 'idem-race-bodies');
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => placeOrder(h.url, c.token, [line(i, 1 + i)], { 'Idempotency-Key': key })));
    const created = results.filter((r) => r.status === 201);
    expect(created).to.have.length(1);
    // Which request wins is not specified, and a loser is 409 while the winner is in flight, 422 after.
    for (const r of results) {
      if (r.status === 409) expectError(r, 409, 'idempotency_key_in_use');
      else if (r.status === 422) expectError(r, 422, 'idempotency_key_reused');
      else expect(r.status, r.text).to.equal(201);
    }
    expect((await allOrders(h.url, c.token)).map((o) => o.order_id)).to.deep.equal([created[0]!.body.order_id]);
  });

  it('creates exactly one order from 20 concurrent requests with the same key and body', async function () {
    const c = await newCustomer(h, 'idem-race');
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(h.url, c.token, [line(0, 3), line(4)], { 'Idempotency-Key': key })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length, 'at least one succeeds').to.be.at.least(1);
    // Both are right by design: 201 (first, or a replay once it is done) or 409 while it is in flight.
    for (const r of results) {
      if (r.status !== 201) expectError(r, 409, 'idempotency_key_in_use');
    }
    const ids = new Set(created.map((r) => r.body.order_id as string));
    expect(ids.size, 'one order id').to.equal(1);
    const listed = await allOrders(h.url, c.token);
    expect(listed.map((o) => o.order_id)).to.deep.equal([...ids]);
    const replay = await placeOrder(h.url, c.token, [line(0, 3), line(4)], { 'Idempotency-Key': key });
    expect(replay.status).to.equal(201);
    expect(replay.body.order_id).to.equal([...ids][0]);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
  });
});
