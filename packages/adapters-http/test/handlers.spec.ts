/**
 * Route handlers called directly, without a socket or Koa: an Exchange in, a Reply out. The
 * storefront is the real one over the memory adapters.
 */
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters, seedDemoData } from '@storefront/adapters-memory';
import type { Caller, Storefront } from '@storefront/domain';
import { createStorefront, isDomainError } from '@storefront/domain';
import { rejectionOf } from '@storefront/testing';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { OrderJsonCache } from '../src/order-json-cache.js';
import { headerValue } from '../src/reply.js';
import { accountRoutes } from '../src/routes/account.js';
import { menuRoutes } from '../src/routes/menu.js';
import { orderRoutes } from '../src/routes/orders.js';
import { dispatch } from '../src/dispatch.js';
import { anExchange, bodyOf, routeOf } from './exchanges.js';

describe('route handlers, called without a socket', () => {
  let storefront: Storefront;
  let caller: Caller;

  before(async () => {
    storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }) });
    await seedDemoData(storefront);
    const pair = await storefront.login.execute({ email: 'alice@example.com', password: 'alice-password', client: 'test' });
    caller = await storefront.authenticate.execute(pair.accessToken);
  });

  it('GET /api/products answers the menu with its ETag, then 304 with no body for that ETag', async () => {
    const products = routeOf(menuRoutes(storefront), 'GET', '/api/products');
    const first = await dispatch(products, anExchange());
    expect(first.status).to.equal(200);
    const etag = headerValue(first.headers, 'ETag');
    expect(etag).to.match(/^".+"$/);
    expect((bodyOf(first) as { products: unknown[] }).products.length).to.be.greaterThan(20);
    const again = await dispatch(products, anExchange({ headers: { 'if-none-match': etag! } }));
    expect(again.status).to.equal(304);
    expect(again.body.kind).to.equal('none');
  });

  it('GET /api/search refuses a q given twice with validation_failed naming q', async () => {
    const search = routeOf(menuRoutes(storefront), 'GET', '/api/search');
    const error = await rejectionOf(Promise.resolve().then(() => dispatch(search, anExchange({ query: { q: ['a', 'b'] } }))));
    expect(isDomainError(error, 'validation_failed')).to.equal(true);
    expect((error as { details: unknown }).details).to.deep.equal([{ path: 'q', message: 'must be given once' }]);
  });

  it('POST /api/orders places an order for the caller (201), and a retry with its key replays it', async () => {
    const place = routeOf(orderRoutes(storefront, new OrderJsonCache()), 'POST', '/api/orders');
    const productId = (await storefront.listMenu.execute()).products.find((p) => p.available)!.productId;
    const exchange = anExchange({ method: 'POST', caller, body: { items: [{ product_id: productId, quantity: 2 }] }, headers: { 'idempotency-key': 'handler-test-1' } });
    const placed = await dispatch(place, exchange);
    expect(placed.status).to.equal(201);
    expect(headerValue(placed.headers, 'Idempotent-Replayed')).to.equal(undefined);
    const replayed = await dispatch(place, exchange);
    expect(replayed.status).to.equal(201);
    expect(headerValue(replayed.headers, 'Idempotent-Replayed')).to.equal('true');
    expect((bodyOf(replayed) as { order_id: string }).order_id).to.equal((bodyOf(placed) as { order_id: string }).order_id);
  });

  it('POST /api/orders refuses an anonymous caller with unauthorized, and an unknown field with validation_failed', async () => {
    const place = routeOf(orderRoutes(storefront, new OrderJsonCache()), 'POST', '/api/orders');
    expect(isDomainError(await rejectionOf(Promise.resolve().then(() => dispatch(place, anExchange({ method: 'POST', body: { items: [] } })))), 'unauthorized')).to.equal(true);
    const error = await rejectionOf(Promise.resolve().then(() => dispatch(place, anExchange({ method: 'POST', caller, body: { items: [], coupon: 'x' } }))));
    expect((error as { details: unknown }).details).to.deep.equal([
      { path: 'coupon', message: 'is not a known field' },
      { path: 'items', message: 'must be a list of 1 to 50 items' },
    ]);
  });

  it('GET /api/rate-limit answers the quota admission found, consuming nothing itself', async () => {
    const quota = routeOf(accountRoutes(storefront, { endCustomer: () => undefined }), 'GET', '/api/rate-limit');
    expect(quota.quota).to.equal('peek');
    const rateLimit = { limit: 120, remaining: 7, window: 60, reset: 30, retryAfter: 0, scope: 'ip' as const };
    const reply = await dispatch(quota, anExchange({ rateLimit }));
    expect(reply.status).to.equal(200);
    expect(bodyOf(reply)).to.deep.equal({ limit: 120, remaining: 7, window: 60, reset: 30, retry_after: 0, scope: 'ip' });
  });
});
