import { describe, it, before } from 'mocha';
import { expect } from 'chai';
import type { ProductJson, Res } from './support.js';
import {
  BOB,
  availableProducts,
  call,
  expectJson,
  expectUnauthorized,
  expectValidation,
  login,
  newCustomer,
  placeOrder,
  useServer,
} from './support.js';

interface OrderJson {
  order_id: string;
  amount: number;
  created_at: string;
  [key: string]: unknown;
}

/** The target of `Link: <...>; rel="next"`, or null. */
function nextLink(res: Res): string | null {
  const link = res.headers.get('link');
  if (link === null) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (m !== null && /\brel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/.test(m[2]!)) return m[1]!;
  }
  return null;
}

describe('e2e: GET /api/orders', function () {
  const h = useServer();
  let products: ProductJson[] = [];
  /** A customer with 45 orders, placed one after another. */
  let token = '';
  let placed: OrderJson[] = [];

  before(async function () {
    this.timeout(20_000);
    products = await availableProducts(h.url);
    const c = await newCustomer(h, 'paging');
    token = c.token;
    placed = [];
    for (let i = 0; i < 45; i++) {
      const res = await placeOrder(h.url, token, [{ product_id: products[i % products.length]!.product_id, quantity: (i % 3) + 1 }]);
      expect(res.status, res.text).to.equal(201);
      placed.push(res.body as OrderJson);
    }
  });

  function list(query: string, t = token): Promise<Res> {
    return call(h.url, `/api/orders${query}`, { token: t });
  }

  it('answers 401 unauthorized with a Bearer challenge to an anonymous caller', async function () {
    expectUnauthorized(await call(h.url, '/api/orders'), 'unauthorized');
  });

  it('defaults to page 1 of 20 and says where the next page is', async function () {
    const res = await list('');
    expect(res.status).to.equal(200);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['meta', 'orders']);
    expect(res.body.meta).to.deep.equal({ total: 45, page: 1, per_page: 20, next_page: 2 });
    expect(res.body.orders).to.have.length(20);
    expect(res.headers.get('cache-control') ?? '').to.include('no-store');
  });

  it('lists the caller\'s orders oldest first, each with the full order as placed', async function () {
    const res = await list('?limit=100');
    expect(res.body.orders).to.deep.equal(placed);
    const keys = (res.body.orders as OrderJson[]).map((o) => [o.created_at, o.order_id]);
    const sorted = [...keys].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : 1));
    expect(keys).to.deep.equal(sorted);
  });

  it('shows a customer only its own orders', async function () {
    const bob = await login(h.url, BOB.email, BOB.password);
    const own = await placeOrder(h.url, bob.access_token, [{ product_id: products[0]!.product_id, quantity: 1 }]);
    expect(own.status).to.equal(201);
    const bobs = await list('?limit=100', bob.access_token);
    const ids = (bobs.body.orders as OrderJson[]).map((o) => o.order_id);
    expect(ids).to.include(own.body.order_id);
    for (const o of placed) expect(ids).not.to.include(o.order_id);
    const mine = await list('?limit=100');
    expect((mine.body.orders as OrderJson[]).map((o) => o.order_id)).not.to.include(own.body.order_id);
    expect(mine.body.meta.total).to.equal(45);
  });

  it('reads every order exactly once by following next_page', async function () {
    const seen: string[] = [];
    let page: number | null = 1;
    let pages = 0;
    while (page !== null) {
      const res = await list(`?page=${page}&limit=7`);
      expect(res.status).to.equal(200);
      expect(res.body.meta.page).to.equal(page);
      expect(res.body.meta.per_page).to.equal(7);
      expect(res.body.meta.total).to.equal(45);
      seen.push(...(res.body.orders as OrderJson[]).map((o) => o.order_id));
      page = res.body.meta.next_page as number | null;
      pages += 1;
      expect(pages).to.be.at.most(10);
    }
    expect(seen).to.deep.equal(placed.map((o) => o.order_id));
    expect(pages).to.equal(7);
  });

  it('answers next_page null and no rel="next" link on the last page', async function () {
    const res = await list('?page=3&limit=20');
    expect(res.body.meta).to.deep.equal({ total: 45, page: 3, per_page: 20, next_page: null });
    expect(res.body.orders).to.deep.equal(placed.slice(40));
    expect(nextLink(res)).to.equal(null);
  });

  it('sends a Link rel="next" header that leads to the next page', async function () {
    const res = await list('?page=2&limit=10');
    const target = nextLink(res);
    expect(target, `Link: ${res.headers.get('link')}`).to.be.a('string');
    const url = new URL(target!, `${h.url}/api/orders`);
    expect(url.searchParams.get('page')).to.equal('3');
    const next = await call(h.url, `${url.pathname}${url.search}`, { token });
    expect(next.status).to.equal(200);
    expect(next.body.meta).to.deep.equal({ total: 45, page: 3, per_page: 10, next_page: 4 });
    expect(next.body.orders).to.deep.equal(placed.slice(20, 30));
  });

  it('answers 200 with an empty list and the total for a page past the end', async function () {
    const res = await list('?page=50');
    expect(res.status).to.equal(200);
    expect(res.body.orders).to.deep.equal([]);
    expect(res.body.meta).to.deep.equal({ total: 45, page: 50, per_page: 20, next_page: null });
    expect(nextLink(res)).to.equal(null);
  });

  it('serves a limit above 100 as 100 and says so in per_page', async function () {
    const res = await list('?limit=500');
    expect(res.status).to.equal(200);
    expect(res.body.meta).to.deep.equal({ total: 45, page: 1, per_page: 100, next_page: null });
    expect(res.body.orders).to.have.length(45);
  });

  it('answers 200 with an empty first page to a customer without orders', async function () {
    const c = await newCustomer(h, 'no-orders');
    const res = await list('', c.token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ meta: { total: 0, page: 1, per_page: 20, next_page: null }, orders: [] });
  });

  it('rejects page or limit that is not an integer of 1 or more with 400 validation_failed', async function () {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=']) expectValidation(await list(`?${q}`), 'page');
    for (const q of ['limit=0', 'limit=-5', 'limit=1.5', 'limit=ten', 'limit=']) expectValidation(await list(`?${q}`), 'limit');
  });

  it('never repeats or skips a row while new orders arrive during paging', async function () {
    this.timeout(20_000);
    const c = await newCustomer(h, 'paging-live');
    const existing: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await placeOrder(h.url, c.token, [{ product_id: products[i % products.length]!.product_id, quantity: 1 }]);
      expect(res.status).to.equal(201);
      existing.push(res.body.order_id as string);
    }
    const writer = (async () => {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await placeOrder(h.url, c.token, [{ product_id: products[i % products.length]!.product_id, quantity: 2 }]);
        expect(res.status).to.equal(201);
        ids.push(res.body.order_id as string);
      }
      return ids;
    })();
    const reader = (async () => {
      const seen: string[] = [];
      let page: number | null = 1;
      while (page !== null) {
        const res = await list(`?page=${page}&limit=4`, c.token);
        expect(res.status).to.equal(200);
        seen.push(...(res.body.orders as OrderJson[]).map((o) => o.order_id));
        page = res.body.meta.next_page as number | null;
      }
      return seen;
    })();
    const [added, seen] = await Promise.all([writer, reader]);
    expect(new Set(seen).size, 'no row repeated').to.equal(seen.length);
    expect(seen.slice(0, 30), 'the orders that existed before come first, each once').to.deep.equal(existing);
    const final = await list('?limit=100', c.token);
    const finalIds = (final.body.orders as OrderJson[]).map((o) => o.order_id);
    expect(finalIds).to.deep.equal([...existing, ...added]);
    expect(seen, 'what was read is a prefix of the final list').to.deep.equal(finalIds.slice(0, seen.length));
  });
});
