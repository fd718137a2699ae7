import { describe, it, after } from 'mocha';
import { expect } from 'chai';
import type { ProductJson } from './support.js';
import { call, cmp, expectJson, getMenu, useServer, writeMenuFile } from './support.js';

const PRODUCT_KEYS = ['available', 'category', 'currency', 'description', 'name', 'option_groups', 'price', 'product_id', 'tags', 'tax_rate'];

function expectProductShape(p: ProductJson): void {
  expect(Object.keys(p).sort(), `fields of ${JSON.stringify(p)}`).to.deep.equal(PRODUCT_KEYS);
  expect(p.product_id).to.be.a('string').and.match(/^prd_[A-Za-z0-9]{16,}$/);
  expect(p.name).to.be.a('string').and.not.equal('');
  expect(p.description).to.be.a('string');
  expect(p.category).to.be.a('string').and.not.equal('');
  expect(Number.isInteger(p.price), `integer price ${p.price}`).to.equal(true);
  expect(p.price).to.be.at.least(0);
  expect(p.currency).to.match(/^[A-Z]{3}$/);
  expect(p.tags).to.be.an('array');
  for (const tag of p.tags) expect(tag).to.be.a('string');
  expect(p.available).to.be.a('boolean');
  expect(p.option_groups).to.be.an('array');
  for (const group of p.option_groups) {
    expect(Object.keys(group).sort()).to.deep.equal(['group_id', 'max', 'min', 'name', 'options']);
    expect(group.group_id).to.match(/^grp_[0-9a-z]{20}$/);
    expect(group.min).to.be.at.least(0).and.at.most(group.max);
    expect(group.max).to.be.at.least(1).and.at.most(group.options.length);
    for (const option of group.options) {
      expect(Object.keys(option).sort()).to.deep.equal(['available', 'name', 'option_id', 'price_delta']);
      expect(option.option_id).to.match(/^opt_[0-9a-z]{20}$/);
      expect(Number.isInteger(option.price_delta) && option.price_delta >= 0, `price_delta ${option.price_delta}`).to.equal(true);
    }
  }
}

/** A product as the menu file writes it: without the ids the store assigned. */
function withoutIds(p: ProductJson): unknown {
  const { product_id: _id, option_groups, ...rest } = p;
  return {
    ...rest,
    option_groups: option_groups.map(({ group_id: _g, options, ...group }) => ({ ...group, options: options.map(({ option_id: _o, ...option }) => option) })),
  };
}

function expectMenuOrder(products: readonly ProductJson[]): void {
  const sorted = [...products].sort((a, b) => cmp(a.category, b.category) || cmp(a.name, b.name));
  expect(products.map((p) => `${p.category} / ${p.name}`)).to.deep.equal(sorted.map((p) => `${p.category} / ${p.name}`));
}

describe('e2e: GET /api/products (demo menu)', function () {
  const h = useServer();

  it('answers 200 with {products: [...]} as JSON to an anonymous caller', async function () {
    const res = await call(h.url, '/api/products');
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body)).to.deep.equal(['products']);
    expect(res.body.products).to.be.an('array').that.is.not.empty;
  });

  it('returns every product with exactly the documented fields and types', async function () {
    const products = await getMenu(h.url);
    for (const p of products) expectProductShape(p);
  });

  it('serves a demo menu of about 25 dishes across several categories, some unavailable', async function () {
    // Ranges, because DECISIONS itself says "about 25 dishes" and "one or two of them unavailable".
    const products = await getMenu(h.url);
    expect(products.length).to.be.within(20, 30);
    expect(new Set(products.map((p) => p.category)).size).to.be.at.least(3);
    const unavailable = products.filter((p) => !p.available);
    expect(unavailable.length).to.be.within(1, 2);
  });

  it('prices the demo menu in USD minor units', async function () {
    const products = await getMenu(h.url);
    expect(new Set(products.map((p) => p.currency))).to.deep.equal(new Set(['USD']));
    expect(products.some((p) => p.price >= 100), 'prices are cents').to.equal(true);
  });

  it('lists products ordered by category, then name', async function () {
    expectMenuOrder(await getMenu(h.url));
  });

  it('gives every product a distinct opaque id', async function () {
    const ids = (await getMenu(h.url)).map((p) => p.product_id);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('returns the same list on every call', async function () {
    const [a, b] = await Promise.all([call(h.url, '/api/products'), call(h.url, '/api/products')]);
    expect(a.text).to.equal(b.text);
  });

  it('sends an ETag and answers 304 with an empty body to If-None-Match with it', async function () {
    const first = await call(h.url, '/api/products');
    const etag = first.headers.get('etag');
    expect(etag, 'ETag').to.be.a('string').and.match(/^(W\/)?"[^"]+"$/);
    const again = await call(h.url, '/api/products', { headers: { 'If-None-Match': etag! } });
    expect(again.status).to.equal(304);
    expect(again.text).to.equal('');
    expect(again.headers.get('etag')).to.equal(etag);
    expect(again.headers.get('x-request-id')).to.be.a('string').and.not.equal('');
    expect(again.headers.get('ratelimit')).to.be.a('string');
  });

  it('asks caches to revalidate the menu with Cache-Control: no-cache', async function () {
    const res = await call(h.url, '/api/products');
    expect(res.headers.get('cache-control') ?? '').to.include('no-cache');
  });

  it('answers 304 when the ETag is one of several in If-None-Match', async function () {
    const etag = (await call(h.url, '/api/products')).headers.get('etag');
    expect(etag).to.be.a('string');
    const res = await call(h.url, '/api/products', { headers: { 'If-None-Match': `"something-else", ${etag!}` } });
    expect(res.status).to.equal(304);
  });

  it('answers 304 to the weak form of the ETag (If-None-Match compares weakly)', async function () {
    const etag = (await call(h.url, '/api/products')).headers.get('etag');
    expect(etag).to.be.a('string');
    const weak = etag!.startsWith('W/') ? etag! : `W/${etag!}`;
    expect((await call(h.url, '/api/products', { headers: { 'If-None-Match': weak } })).status).to.equal(304);
  });

  it('answers 200 with the menu to an If-None-Match that does not match', async function () {
    const res = await call(h.url, '/api/products', { headers: { 'If-None-Match': '"not-the-menu-etag"' } });
    expect(res.status).to.equal(200);
    expect(res.body.products).to.be.an('array').that.is.not.empty;
  });
});

describe('e2e: GET /api/products (menu from STOREFRONT_MENU_FILE)', function () {
  const menu = {
    products: [
      {
        name: 'Zucchini Fries', description: 'Crispy', category: 'Sides', price: 450, currency: 'EUR', tags: ['vegetarian'], available: true,
        option_groups: [{ name: 'Dip', min: 0, max: 1, options: [{ name: 'Aioli', price_delta: 100, available: true }, { name: 'Ketchup', price_delta: 0, available: false }] }],
      },
      { name: 'Apple Pie', description: 'Warm, with cinnamon', category: 'Desserts', price: 599, currency: 'EUR', tags: ['sweet', 'classic'], available: true },
      { name: 'Bruschetta', description: 'Tomato and basil on toast', category: 'Starters', price: 725, currency: 'EUR', tags: [], available: false },
      { name: 'Almond Cake', description: 'Gluten-free', category: 'Desserts', price: 650, currency: 'EUR', tags: ['gluten-free'], available: true },
      { name: 'Aioli', description: 'Garlic mayonnaise', category: 'Sides', price: 150, currency: 'EUR', tags: ['dip'], available: true },
    ],
  };
  const file = writeMenuFile(menu);
  after(() => file.cleanup());
  const h = useServer({ STOREFRONT_MENU_FILE: file.path });

  it('serves exactly the products of the file, with their prices, currency, tags, availability and option groups', async function () {
    const products = await getMenu(h.url);
    // No rate in the file: the store's, the demo's 19 % (demo data is on).
    const file = menu.products.map((p) => ({ option_groups: [], tax_rate: 1900, ...p }));
    expect(products.map(withoutIds)).to.have.deep.members(file);
    expect(products).to.have.length(menu.products.length);
    for (const p of products) expectProductShape(p);
  });

  it('orders the file\'s products by category, then name', async function () {
    const names = (await getMenu(h.url)).map((p) => p.name);
    expect(names).to.deep.equal(['Almond Cake', 'Apple Pie', 'Aioli', 'Zucchini Fries', 'Bruschetta']);
  });

  it('changes the ETag when the menu changes, and serves the new menu to the old ETag', async function () {
    const before = await call(h.url, '/api/products');
    const oldEtag = before.headers.get('etag');
    expect(oldEtag).to.be.a('string');
    await h.server.storefront.importMenu.execute({
      products: [{ name: 'Baklava', description: 'Honey and pistachio', category: 'Desserts', price: 520, currency: 'EUR', tags: ['sweet'], available: true }],
    });
    const res = await call(h.url, '/api/products', { headers: { 'If-None-Match': oldEtag! } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('etag')).to.be.a('string').and.not.equal(oldEtag);
    expect(res.body.products.map((p: ProductJson) => p.name)).to.include('Baklava');
    expectMenuOrder(res.body.products as ProductJson[]);
  });
});
