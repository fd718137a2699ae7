/**
 * Menu options over HTTP (DECISIONS "Menu options") on the demo menu: option groups on every
 * product of the menu and of search, ordering pizzas with and without the required size, every
 * `invalid_options` refusal, the 400s of a malformed `options`, the server's prices, the
 * Idempotency-Key fingerprint that treats options as a set, and the options of an order in its
 * renderings (GET, list, the kitchen's `order.placed` event). Every response is checked against
 * packages/adapters-http/openapi.yaml by the helpers.
 */
import { afterEach, before, describe, it } from 'mocha';
import { expect } from 'chai';
import type { SseReader } from '@storefront/testing';
import type { OptionGroupJson, ProductJson, Res } from './support.js';
import { call, expectError, expectValidation, getMenu, newCustomer, orderCount, placeOrder, useServer } from './support.js';
import { staffToken } from './kitchen-support.js';
import { dataOf, follow } from './events-support.js';

interface LineOptionJson {
  readonly option_id: string;
  readonly name: string;
  readonly price_delta: number;
}

/** The group of `product` named `name`. */
function group(product: ProductJson, name: string): OptionGroupJson {
  const found = product.option_groups.find((g) => g.name === name);
  expect(found, `${product.name} has a group ${name}`).to.not.equal(undefined);
  return found!;
}

/** The option id of `product` named `name` (in any group). */
function option(product: ProductJson, name: string): string {
  const found = product.option_groups.flatMap((g) => g.options).find((o) => o.name === name);
  expect(found, `${product.name} has an option ${name}`).to.not.equal(undefined);
  return found!.option_id;
}

/** The `details` messages of an error body, joined. */
function detailsOf(res: Res): string {
  return ((res.body as { details?: { path: string; message: string }[] }).details ?? []).map((d) => `${d.path}: ${d.message}`).join(' | ');
}

function expectInvalidOptions(res: Res, line: number, ...named: string[]): void {
  expectError(res, 422, 'invalid_options');
  const details = (res.body as { details: { path: string; message: string }[] }).details;
  expect(details, 'details').to.be.an('array').that.is.not.empty;
  for (const d of details) expect(d.path).to.equal(`items.${line}.options`);
  for (const name of named) expect(detailsOf(res), `details name ${name}`).to.include(name);
}

describe('e2e: menu options', function () {
  const h = useServer();
  let menu: ProductJson[] = [];
  let margherita: ProductJson;
  let diavola: ProductJson;
  let coffee: ProductJson;
  let soup: ProductJson;
  let token = '';

  before(async function () {
    menu = await getMenu(h.url);
    const byName = (name: string) => menu.find((p) => p.name === name)!;
    margherita = byName('Pizza Margherita');
    diavola = byName('Pizza Diavola');
    coffee = byName('Café con leche');
    soup = menu.find((p) => p.available && p.option_groups.length === 0)!;
    token = (await newCustomer(h, 'options')).token;
  });

  describe('on the menu', function () {
    it('gives every pizza a required Size (Regular +0, Large +400) and optional Extra toppings (0 to 3, +150 each)', function () {
      const pizzas = menu.filter((p) => p.category === 'Pizza');
      expect(pizzas.length).to.be.at.least(3);
      for (const pizza of pizzas) {
        const size = group(pizza, 'Size');
        expect([size.min, size.max]).to.deep.equal([1, 1]);
        expect(size.options.map((o) => [o.name, o.price_delta])).to.deep.equal([['Regular', 0], ['Large', 400]]);
        const toppings = group(pizza, 'Extra toppings');
        expect([toppings.min, toppings.max]).to.deep.equal([0, 3]);
        expect(toppings.options.length).to.be.at.least(4);
        expect(toppings.options.every((o) => o.price_delta === 150 && o.available)).to.equal(true);
      }
      // Ids are per product: two pizzas' "Large" are two options.
      expect(option(margherita, 'Large')).to.not.equal(option(diavola, 'Large'));
    });

    it('gives a drink an option too, and every other dish an empty option_groups', function () {
      expect(group(coffee, 'Milk')).to.include({ min: 0, max: 1 });
      expect(menu.filter((p) => p.category === 'Drinks').some((p) => p.option_groups.length > 0)).to.equal(true);
      for (const p of menu) expect(p.option_groups, p.name).to.be.an('array');
    });

    it('shows the same option groups in search results', async function () {
      const res = await call(h.url, '/api/search?q=margherita');
      expect(res.status).to.equal(200);
      const found = (res.body.products as ProductJson[]).find((p) => p.product_id === margherita.product_id);
      expect(found).to.deep.equal(margherita);
    });
  });

  describe('POST /api/orders', function () {
    it('prices a Large with two toppings as price + 400 + 300, times the quantity, and echoes the options as priced', async function () {
      const options = [option(margherita, 'Mushrooms'), option(margherita, 'Large'), option(margherita, 'Extra cheese')];
      const res = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 2, options }, { product_id: soup.product_id, quantity: 1 }]);
      expect(res.status, res.text).to.equal(201);
      const [pizza, plain] = res.body.items as { unit_price: number; line_total: number; options: LineOptionJson[] }[];
      const unit = margherita.price + 400 + 150 + 150;
      expect(pizza).to.include({ unit_price: unit, line_total: 2 * unit });
      expect(pizza!.options).to.deep.equal([
        { option_id: option(margherita, 'Large'), name: 'Large', price_delta: 400 },
        { option_id: option(margherita, 'Extra cheese'), name: 'Extra cheese', price_delta: 150 },
        { option_id: option(margherita, 'Mushrooms'), name: 'Mushrooms', price_delta: 150 },
      ]);
      expect(plain).to.include({ unit_price: soup.price, line_total: soup.price });
      expect(plain!.options).to.deep.equal([]);
      expect(res.body.amount).to.equal(2 * unit + soup.price);

      const detail = await call(h.url, `/api/orders/${res.body.order_id as string}`, { token });
      expect(detail.body).to.deep.equal(res.body);
      const listed = await call(h.url, '/api/orders?limit=100', { token });
      expect((listed.body.orders as { order_id: string }[]).find((o) => o.order_id === res.body.order_id)).to.deep.equal(res.body);
    });

    it('prices a Regular without toppings at the pizza’s price, and takes options: [] on a dish without options', async function () {
      const res = await placeOrder(h.url, token, [
        { product_id: diavola.product_id, quantity: 1, options: [option(diavola, 'Regular')] },
        { product_id: soup.product_id, quantity: 3, options: [] },
      ]);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.items[0]).to.include({ unit_price: diavola.price, line_total: diavola.price });
      expect(res.body.amount).to.equal(diavola.price + 3 * soup.price);
    });

    it('refuses a pizza without its required size: 422 invalid_options naming Size, nothing created', async function () {
      const before = await orderCount(h.url, token);
      const res = await placeOrder(h.url, token, [{ product_id: soup.product_id, quantity: 1 }, { product_id: margherita.product_id, quantity: 1 }]);
      expectInvalidOptions(res, 1, 'Size', group(margherita, 'Size').group_id);
      expect(await orderCount(h.url, token)).to.equal(before);
      const noToppings = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [option(margherita, 'Olives')] }]);
      expectInvalidOptions(noToppings, 0, 'Size');
      expect(detailsOf(noToppings)).to.not.include('Extra toppings');
    });

    it('refuses two sizes, naming Size', async function () {
      const res = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [option(margherita, 'Regular'), option(margherita, 'Large')] }]);
      expectInvalidOptions(res, 0, 'Size');
    });

    it('refuses four toppings, naming Extra toppings', async function () {
      const toppings = group(margherita, 'Extra toppings').options.slice(0, 4).map((o) => o.option_id);
      const res = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [option(margherita, 'Large'), ...toppings] }]);
      expectInvalidOptions(res, 0, 'Extra toppings', group(margherita, 'Extra toppings').group_id);
      expect(detailsOf(res)).to.not.include('"Size"');
    });

    it("refuses another product's option, naming it", async function () {
      const theirs = option(diavola, 'Large');
      const res = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [theirs] }]);
      expectInvalidOptions(res, 0, theirs, 'Size');
      const onCoffee = await placeOrder(h.url, token, [{ product_id: coffee.product_id, quantity: 1, options: [option(margherita, 'Large')] }]);
      expectInvalidOptions(onCoffee, 0, option(margherita, 'Large'));
    });

    it('refuses an unknown option, naming it', async function () {
      const res = await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [option(margherita, 'Regular'), 'opt_nosuchoption000000'] }]);
      expectInvalidOptions(res, 0, 'opt_nosuchoption000000');
    });

    it('refuses an unavailable option, naming its group', async function () {
      const milk = group(coffee, 'Milk');
      const off = milk.options.find((o) => !o.available);
      expect(off, 'the demo coffee has a milk out of stock').to.not.equal(undefined);
      const res = await placeOrder(h.url, token, [{ product_id: coffee.product_id, quantity: 1, options: [off!.option_id] }]);
      expectInvalidOptions(res, 0, 'Milk', off!.name);
      const on = milk.options.find((o) => o.available)!;
      const ok = await placeOrder(h.url, token, [{ product_id: coffee.product_id, quantity: 1, options: [on.option_id] }]);
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.amount).to.equal(coffee.price + on.price_delta);
    });

    it('answers 400 validation_failed for options of the wrong type, and for an option named twice', async function () {
      for (const options of ['opt_x', [1], [null], {}, [['opt_x']], [''], true]) {
        expectValidation(await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options }]), 'items.0.options');
      }
      const large = option(margherita, 'Large');
      expectValidation(await placeOrder(h.url, token, [{ product_id: margherita.product_id, quantity: 1, options: [large, large] }]), 'items.0.options');
    });
  });

  describe('with an Idempotency-Key', function () {
    it('replays the order for the same options in another order (201, Idempotent-Replayed), and refuses other options with 422 idempotency_key_reused', async function () {
      const { token: mine } = await newCustomer(h, 'options-key');
      const key = { 'Idempotency-Key': 'pizza-night-1' };
      const [large, cheese, olives] = [option(margherita, 'Large'), option(margherita, 'Extra cheese'), option(margherita, 'Olives')];
      const first = await placeOrder(h.url, mine, [{ product_id: margherita.product_id, quantity: 1, options: [large, cheese, olives] }], key);
      expect(first.status, first.text).to.equal(201);
      const replay = await placeOrder(h.url, mine, [{ product_id: margherita.product_id, quantity: 1, options: [olives, large, cheese] }], key);
      expect(replay.status, replay.text).to.equal(201);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(first.body);
      const other = await placeOrder(h.url, mine, [{ product_id: margherita.product_id, quantity: 1, options: [large, cheese] }], key);
      expectError(other, 422, 'idempotency_key_reused');
      expect(await orderCount(h.url, mine)).to.equal(1);
    });
  });

  describe('on the kitchen stream', function () {
    const streams: SseReader[] = [];
    afterEach(async function () {
      await Promise.all(streams.splice(0).map((stream) => stream.cancel()));
    });

    it('shows the options of each line in order.placed, as GET renders the order', async function () {
      const stream = await follow(h.url, '/api/staff/events', await staffToken(h.url));
      streams.push(stream);
      const { token: mine } = await newCustomer(h, 'options-stream');
      const placed = await placeOrder(h.url, mine, [{ product_id: diavola.product_id, quantity: 1, options: [option(diavola, 'Large'), option(diavola, 'Pepperoni')] }]);
      expect(placed.status, placed.text).to.equal(201);
      let event = await stream.nextEvent();
      while (event !== null && dataOf(event)['order_id'] !== placed.body.order_id) event = await stream.nextEvent();
      expect(event?.event).to.equal('order.placed');
      expect(dataOf(event)).to.deep.equal(placed.body);
      expect((dataOf(event)['items'] as { options: LineOptionJson[] }[])[0]!.options.map((o) => o.name)).to.deep.equal(['Large', 'Pepperoni']);
    });
  });
});
