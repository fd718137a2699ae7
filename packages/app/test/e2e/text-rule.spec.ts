/**
 * Issue 32, items 4 and 5: text no store can hold (NUL, an unpaired surrogate) and text that would
 * change what a screen shows (controls, line breaks in a one-line field, bidirectional overrides) is
 * refused at the door, 400 `validation_failed` naming the wire field, in every store alike (run it
 * with STOREFRONT_TEST_STORE=postgres too), and nothing of the request is stored or logged.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { recordingLogger } from '../helpers.js';
import { adminToken } from './webhooks-support.js';
import { aPlacedOrder, staffToken } from './kitchen-support.js';
import { availableProducts, call, expectError, expectValidation, freshEmail, newCustomer, orderCount, placeOrder, useServer, type Res } from './support.js';

/** Each kind of character the rule refuses, with a marker to look for in the logs. */
const REFUSED: Readonly<Record<string, string>> = {
  NUL: 'Refused\u0000marker',
  'unpaired surrogate': 'Refused\ud800marker',
  BEL: 'Refused\u0007marker',
  ESC: 'Refused\u001b[31mmarker',
  'CR LF': 'Refused\r\nmarker',
  'right-to-left override': 'Refused\u202emarker',
};
/** Refused in every field, ids included: no store holds them alike. */
const UNSTORABLE = ['NUL', 'unpaired surrogate'];

const ADDRESS = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postal_code: '10178', lat: 52.5219, lng: 13.4132 };

/** A 400 whose details name exactly `path`, with the domain's sentence. */
function expectRefused(res: Res, path: string, what: string): void {
  expectValidation(res, path);
  const details = (res.body as { details: { path: string; message: string }[] }).details;
  expect(details.map((d) => d.path), what).to.deep.equal([path]);
  expect(details[0]!.message, what).to.match(/without NUL|no control characters|without control characters/);
}

describe('e2e: text a store can hold and a screen shows as given (issue 32, items 4 and 5)', function () {
  const recorder = recordingLogger('debug');
  const h = useServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', REGISTER_RATE_LIMIT_MAX: '1000', LOG_LEVEL: 'debug' }, { logger: recorder.logger });

  it('refuses a sign-up name with any of them, and makes no account', async function () {
    const email = freshEmail('text');
    for (const [what, text] of Object.entries(REFUSED)) {
      expectRefused(await call(h.url, '/api/auth/register', { json: { email, password: 'a-good-password', name: text } }), 'name', what);
    }
    // No account holds the address: it is still free.
    const res = await call(h.url, '/api/auth/register', { json: { email, password: 'a-good-password', name: 'Ann \u200fאנה' } });
    expect(res.status, res.text).to.equal(201);
  });

  it('refuses a chosen password with NUL or an unpaired surrogate; a given one is only compared (401)', async function () {
    const email = freshEmail('text');
    for (const what of UNSTORABLE) {
      expectRefused(await call(h.url, '/api/auth/register', { json: { email, password: `long-${REFUSED[what]}`, name: 'Ann' } }), 'password', what);
      expectError(await call(h.url, '/api/auth/login', { json: { email: 'alice@example.com', password: REFUSED[what] } }), 401, 'invalid_credentials');
    }
    const res = await call(h.url, '/api/auth/register', { json: { email, password: 'a-good-password\u0007', name: 'Ann' } });
    expect(res.status, `a password may hold other controls: ${res.text}`).to.equal(201);
  });

  it('refuses every delivery address field with any of them, and places no order', async function () {
    const { token } = await newCustomer(h, 'text');
    const product = (await availableProducts(h.url))[0]!;
    const items = [{ product_id: product.product_id, quantity: 9 }];
    for (const field of ['line1', 'line2', 'city', 'postal_code']) {
      for (const [what, text] of Object.entries(REFUSED)) {
        const res = await call(h.url, '/api/orders', { token, json: { items, fulfilment: { type: 'delivery', address: { ...ADDRESS, [field]: text } } } });
        expectRefused(res, `fulfilment.address.${field}`, `${field}: ${what}`);
      }
    }
    expect(await orderCount(h.url, token)).to.equal(0);
  });

  it('takes newlines in instructions, the one field meant to hold lines, and refuses the rest there', async function () {
    const { token } = await newCustomer(h, 'text');
    const product = (await availableProducts(h.url))[0]!;
    const items = [{ product_id: product.product_id, quantity: 9 }];
    const order = (instructions: string): Promise<Res> => call(h.url, '/api/orders', { token, json: { items, fulfilment: { type: 'delivery', address: { ...ADDRESS, instructions } } } });
    for (const [what, text] of Object.entries(REFUSED)) expectRefused(await order(text), 'fulfilment.address.instructions', what);
    expect(await orderCount(h.url, token)).to.equal(0);
    const placed = await order('Ring twice\nthird floor, \u05d3\u05d9\u05e8\u05d4 \u200f4');
    expect(placed.status, placed.text).to.equal(201);
    expect(placed.body.fulfilment.address.instructions).to.equal('Ring twice\nthird floor, \u05d3\u05d9\u05e8\u05d4 \u200f4');
  });

  it('refuses a product or option id no store can look up (400); other odd ids are just unknown (422)', async function () {
    const { token } = await newCustomer(h, 'text');
    for (const what of UNSTORABLE) {
      expectRefused(await placeOrder(h.url, token, [{ product_id: `prd_${REFUSED[what]}`, quantity: 1 }]), 'items.0.product_id', what);
      const product = (await availableProducts(h.url))[0]!;
      expectRefused(await placeOrder(h.url, token, [{ product_id: product.product_id, quantity: 1, options: [`opt_${REFUSED[what]}`] }]), 'items.0.options.0', what);
    }
    expectError(await placeOrder(h.url, token, [{ product_id: 'prd_\u0007\u202e', quantity: 1 }]), 422, 'unknown_product');
    expect(await orderCount(h.url, token)).to.equal(0);
  });

  it('refuses a staff reason with any of them, and leaves the order as it was', async function () {
    const staff = await staffToken(h.url);
    const { token, order } = await aPlacedOrder(h);
    for (const [what, reason] of Object.entries(REFUSED)) {
      const res = await call(h.url, `/api/staff/orders/${order.order_id}/status`, { token: staff, json: { status: 'rejected', reason } });
      expectRefused(res, 'reason', what);
    }
    const read = await call(h.url, `/api/orders/${order.order_id}`, { token });
    expect(read.body).to.include({ status: 'placed', version: 1 });
    expect(read.body).not.to.have.property('reason');
  });

  it('refuses a webhook description or URL with any of them, on creation and change, and keeps none', async function () {
    const admin = await adminToken(h.url);
    const before = (await call(h.url, '/api/admin/webhooks', { token: admin })).body.webhooks.length as number;
    for (const [what, text] of Object.entries(REFUSED)) {
      expectRefused(await call(h.url, '/api/admin/webhooks', { token: admin, json: { url: 'http://127.0.0.1:9/hook', description: text } }), 'description', what);
      expectRefused(await call(h.url, '/api/admin/webhooks', { token: admin, json: { url: `http://127.0.0.1:9/${text}` } }), 'url', what);
    }
    expect((await call(h.url, '/api/admin/webhooks', { token: admin })).body.webhooks).to.have.length(before);
    const created = await call(h.url, '/api/admin/webhooks', { token: admin, json: { url: 'http://127.0.0.1:9/hook', description: 'Till' } });
    expect(created.status, created.text).to.equal(201);
    const path = `/api/admin/webhooks/${created.body.webhook_id}`;
    for (const [what, text] of Object.entries(REFUSED)) {
      expectRefused(await call(h.url, path, { method: 'PATCH', token: admin, json: { description: text } }), 'description', what);
    }
    expect((await call(h.url, path, { token: admin })).body.description).to.equal('Till');
  });

  it('answers an id in a path with any of them 404, like an unknown id, never 500', async function () {
    const staff = await staffToken(h.url);
    const admin = await adminToken(h.url);
    const { token } = await newCustomer(h, 'text');
    for (const [what, text] of Object.entries(REFUSED)) {
      // Another marker: the access log names the path, as it does for any 404.
      const id = encodeURIComponent(text.replace(/\ud800/, '\ufffd').replace('marker', 'id'));
      expectError(await call(h.url, `/api/orders/ord_${id}`, { token }), 404, 'not_found');
      expectError(await call(h.url, `/api/staff/products/prd_${id}`, { method: 'PATCH', token: staff, json: { available: false } }), 404, 'not_found');
      expectError(await call(h.url, `/api/admin/webhooks/whk_${id}`, { token: admin }), 404, 'not_found');
      expect(what).to.be.a('string');
    }
    // A percent-encoded surrogate is not UTF-8: the id is read as written, and is no id of ours.
    expectError(await call(h.url, '/api/orders/ord_%ED%A0%80', { token }), 404, 'not_found');
  });

  it('writes nothing of a refused text to the log', function () {
    const logged = recorder.lines.map((line) => JSON.stringify(line)).join('\n');
    expect(recorder.lines.length, 'something was logged').to.be.above(0);
    expect(logged).not.to.match(/Refused.{0,12}marker/);
    expect(logged).not.to.include('marker');
  });
});
