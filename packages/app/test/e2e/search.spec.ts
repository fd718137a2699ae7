import { describe, it, after } from 'mocha';
import { expect } from 'chai';
import type { ProductJson, Res } from './support.js';
import { call, expectJson, expectUnauthorized, expectValidation, getMenu, useServer, writeMenuFile } from './support.js';

const dish = (name: string, category: string, description: string, tags: string[], price = 1000, available = true) => ({
  name,
  description,
  category,
  price,
  currency: 'USD',
  tags,
  available,
});

const NOODLES = Array.from({ length: 25 }, (_, i) => dish(`Noodle Bowl ${String(i + 1).padStart(2, '0')}`, 'Noodles', 'Hand-pulled noodles in broth', ['hot'], 1100 + i));

const MENU = {
  products: [
    dish('Crème Brûlée', 'Desserts', 'Vanilla custard with caramelised sugar', ['sweet', 'french']),
    dish('Chocolate Cake', 'Desserts', 'Rich cake with a creamy ganache', ['sweet']),
    dish('Margherita Pizza', 'Pizza', 'Tomato, mozzarella and basil', ['vegetarian']),
    dish('Pepperoni Pizza', 'Pizza', 'Tomato, mozzarella and pepperoni', ['spicy']),
    dish('Basil Pesto Pasta', 'Pasta', 'Fresh basil pesto with pine nuts', ['vegetarian']),
    dish('Tomato Soup', 'Starters', 'Slow-roasted tomato with basil', ['vegetarian', 'vegan']),
    dish('Garden Salad', 'Starters', 'Leaves with a tomato vinaigrette', ['vegan']),
    dish('Spicy Wings', 'Starters', 'Chicken wings, hot sauce', ['meat']),
    ...NOODLES,
  ],
};

function names(res: Res): string[] {
  return (res.body.products as ProductJson[]).map((p) => p.name);
}

function search(base: string, q: string, extra = ''): Promise<Res> {
  return call(base, `/api/search?q=${encodeURIComponent(q)}${extra}`);
}

describe('e2e: GET /api/search', function () {
  const file = writeMenuFile(MENU);
  after(() => file.cleanup());
  const h = useServer({ STOREFRONT_MENU_FILE: file.path });

  it('answers {meta: {total, page, per_page, next_page}, products} as JSON', async function () {
    const res = await search(h.url, 'pizza');
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['meta', 'products']);
    expect(res.body.meta).to.deep.equal({ total: 2, page: 1, per_page: 20, next_page: null });
    expect(names(res)).to.have.members(['Margherita Pizza', 'Pepperoni Pizza']);
  });

  it('returns products in the same shape as GET /api/products', async function () {
    const menu = await getMenu(h.url);
    const res = await search(h.url, 'margherita');
    expect(res.body.products).to.have.length(1);
    const found = res.body.products[0] as ProductJson;
    expect(found).to.deep.equal(menu.find((p) => p.product_id === found.product_id));
  });

  it('is case-insensitive', async function () {
    const res = await search(h.url, 'PiZZa');
    expect(names(res)).to.have.members(['Margherita Pizza', 'Pepperoni Pizza']);
  });

  it('is accent-insensitive in both directions', async function () {
    expect(names(await search(h.url, 'creme brulee'))).to.deep.equal(['Crème Brûlée']);
    expect(names(await search(h.url, 'CRÈME'))).to.deep.equal(['Crème Brûlée']);
    expect(names(await search(h.url, 'brûlée'))).to.deep.equal(['Crème Brûlée']);
  });

  it('requires every word of q to match', async function () {
    const res = await search(h.url, 'tomato basil');
    expect(names(res)).to.have.members(['Tomato Soup', 'Margherita Pizza']);
    expect(res.body.meta.total).to.equal(2);
  });

  it('matches the last word as a prefix (search-as-you-type)', async function () {
    expect(names(await search(h.url, 'marg'))).to.deep.equal(['Margherita Pizza']);
    expect(names(await search(h.url, 'pizza pep'))).to.deep.equal(['Pepperoni Pizza']);
  });

  it('does not match a word other than the last as a prefix', async function () {
    const res = await search(h.url, 'marg pizza');
    expect(res.status).to.equal(200);
    expect(res.body.products).to.deep.equal([]);
    expect(res.body.meta.total).to.equal(0);
  });

  it('matches the category, the tags and the description', async function () {
    expect(names(await search(h.url, 'starters'))).to.have.members(['Tomato Soup', 'Garden Salad', 'Spicy Wings']);
    expect(names(await search(h.url, 'vegan'))).to.have.members(['Tomato Soup', 'Garden Salad']);
    expect(names(await search(h.url, 'vinaigrette'))).to.deep.equal(['Garden Salad']);
  });

  it('ranks name hits first, then the rest by name', async function () {
    expect(names(await search(h.url, 'basil'))).to.deep.equal(['Basil Pesto Pasta', 'Margherita Pizza', 'Tomato Soup']);
    expect(names(await search(h.url, 'tomato'))).to.deep.equal(['Tomato Soup', 'Garden Salad', 'Margherita Pizza', 'Pepperoni Pizza']);
    expect(names(await search(h.url, 'spicy'))).to.deep.equal(['Spicy Wings', 'Pepperoni Pizza']);
  });

  it('breaks ties by name', async function () {
    const res = await search(h.url, 'noodle', '&limit=100');
    expect(names(res)).to.deep.equal(NOODLES.map((n) => n.name));
  });

  it('treats regular-expression and query metacharacters as plain text', async function () {
    for (const q of ['pizza(', '.*', '\\', '[a-z]+', '$where', 'tomato\u0000', "'; DROP TABLE products; --", '%']) {
      const res = await search(h.url, q);
      expect(res.status, `${JSON.stringify(q)}: ${res.text.slice(0, 200)}`).to.equal(200);
      expectJson(res);
    }
    expect(names(await search(h.url, 'pizza('))).to.have.members(['Margherita Pizza', 'Pepperoni Pizza']);
  });

  it('answers 200 with an empty page when nothing matches', async function () {
    const res = await search(h.url, 'sushi');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ meta: { total: 0, page: 1, per_page: 20, next_page: null }, products: [] });
  });

  it('pages results 20 at a time by default and says where the next page is', async function () {
    const first = await search(h.url, 'noodle');
    expect(first.body.meta).to.deep.equal({ total: 25, page: 1, per_page: 20, next_page: 2 });
    expect(names(first)).to.deep.equal(NOODLES.slice(0, 20).map((n) => n.name));
    const second = await search(h.url, 'noodle', '&page=2');
    expect(second.body.meta).to.deep.equal({ total: 25, page: 2, per_page: 20, next_page: null });
    expect(names(second)).to.deep.equal(NOODLES.slice(20).map((n) => n.name));
  });

  it('honours limit and serves a limit above 100 as 100', async function () {
    const small = await search(h.url, 'noodle', '&limit=5&page=3');
    expect(small.body.meta).to.deep.equal({ total: 25, page: 3, per_page: 5, next_page: 4 });
    expect(names(small)).to.deep.equal(NOODLES.slice(10, 15).map((n) => n.name));
    const big = await search(h.url, 'noodle', '&limit=500');
    expect(big.body.meta.per_page).to.equal(100);
    expect(big.body.products).to.have.length(25);
  });

  it('answers 200 with an empty list for a page past the end', async function () {
    const res = await search(h.url, 'noodle', '&page=9');
    expect(res.status).to.equal(200);
    expect(res.body.products).to.deep.equal([]);
    expect(res.body.meta).to.include({ total: 25, page: 9, next_page: null });
  });

  it('rejects a missing q with 400 validation_failed naming q', async function () {
    expectValidation(await call(h.url, '/api/search'), 'q');
  });

  it('rejects an empty or blank q with 400 validation_failed', async function () {
    expectValidation(await call(h.url, '/api/search?q='), 'q');
    expectValidation(await search(h.url, '   '), 'q');
  });

  it('accepts a q of 100 characters and rejects one of 101 with 400', async function () {
    const ok = await search(h.url, 'a'.repeat(100));
    expect(ok.status).to.equal(200);
    expectValidation(await search(h.url, 'a'.repeat(101)), 'q');
  });

  it('rejects bad paging parameters with 400 validation_failed', async function () {
    expectValidation(await search(h.url, 'noodle', '&page=0'), 'page');
    expectValidation(await search(h.url, 'noodle', '&limit=0'), 'limit');
    expectValidation(await search(h.url, 'noodle', '&page=abc'), 'page');
    expectValidation(await search(h.url, 'noodle', '&limit=2.5'), 'limit');
  });

  it('answers 401 invalid_token when a bad token is presented, though search is public', async function () {
    const res = await call(h.url, '/api/search?q=pizza', { token: 'not-a-token' });
    expectUnauthorized(res, 'invalid_token');
  });
});

describe('e2e: GET /api/search (demo menu)', function () {
  const h = useServer();

  it('finds accented demo dishes with plain letters: creme, jalapeno, acai, cafe', async function () {
    for (const [q, name] of [['creme', 'Crème brûlée'], ['jalapeno', 'Jalapeño poppers'], ['acai', 'Açaí bowl'], ['cafe', 'Café con leche']] as const) {
      const res = await search(h.url, q);
      expect(res.status).to.equal(200);
      expect(names(res), q).to.include(name);
      expect(names(res)[0], `${q}: a name hit comes first`).to.equal(name);
    }
  });

  it('measures q in characters: 100 accented letters or 100 emoji are not too long', async function () {
    expect((await search(h.url, 'é'.repeat(100))).status).to.equal(200);
    expect((await search(h.url, '\u{1F355}'.repeat(100))).status, '100 pizza emoji').to.equal(200);
    expectValidation(await search(h.url, '\u{1F355}'.repeat(101)), 'q');
  });
});
