/**
 * The order and kitchen handlers called without a socket (the staff guard is admission's: see the
 * last block), over the real storefront and memory adapters.
 */
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters, seedDemoData } from '@storefront/adapters-memory';
import type { Caller, Storefront } from '@storefront/domain';
import { createStorefront, isDomainError } from '@storefront/domain';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { admission } from '../src/admission.js';
import { OrderJsonCache } from '../src/order-json-cache.js';
import { HttpProblem } from '../src/problem.js';
import { headerValue } from '../src/reply.js';
import type { Route } from '../src/route.js';
import { kitchenRoutes } from '../src/routes/kitchen.js';
import { orderRoutes } from '../src/routes/orders.js';
import { storeRoutes } from '../src/routes/store.js';
import { dispatch } from '../src/dispatch.js';
import { anExchange, bodyOf, refusalOf, routeOf } from './exchanges.js';

interface OrderBody {
  order_id: string;
  status: string;
  version: number;
  status_history: { status: string; at: string }[];
  reason?: string;
}

describe('order and kitchen handlers, called without a socket', () => {
  let storefront: Storefront;
  let alice: Caller;
  let bob: Caller;
  let staff: Caller;
  let routes: Route[];
  let productId: string;

  const callerOf = async (email: string, password: string): Promise<Caller> => {
    const pair = await storefront.login.execute({ email, password, client: 'test' });
    return storefront.authenticate.execute(pair.accessToken);
  };

  /** A new order of `caller`, as the client sees it. */
  const placeFor = async (caller: Caller): Promise<OrderBody> => {
    const place = routeOf(routes, 'POST', '/api/orders');
    const reply = await dispatch(place, anExchange({ method: 'POST', caller, body: { items: [{ product_id: productId, quantity: 1 }] } }));
    return bodyOf(reply) as OrderBody;
  };

  before(async () => {
    storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }) });
    await seedDemoData(storefront);
    await storefront.registerCustomer.execute({ email: 'cook@example.com', name: 'Cook', password: 'cook-password' });
    await storefront.setCustomerRole.execute({ email: 'cook@example.com', role: 'staff' });
    alice = await callerOf('alice@example.com', 'alice-password');
    bob = await callerOf('bob@example.com', 'bob-password');
    staff = await callerOf('cook@example.com', 'cook-password');
    const orderJson = new OrderJsonCache();
    routes = [...orderRoutes(storefront, orderJson), ...kitchenRoutes(storefront, orderJson), ...storeRoutes(storefront)];
    productId = (await storefront.listMenu.execute()).products.find((p) => p.available)!.productId;
  });

  it('places an order with its lifecycle fields: placed, version 1, a history starting with placed', async () => {
    const order = await placeFor(alice);
    expect(order).to.include({ status: 'placed', version: 1 });
    expect(order.status_history.map((h) => h.status)).to.deep.equal(['placed']);
    expect(order).not.to.have.property('reason');
  });

  it('GET /api/orders/{order_id} answers the owner and staff with ETag "1", then 304 for that ETag', async () => {
    const { order_id } = await placeFor(alice);
    const detail = routeOf(routes, 'GET', '/api/orders/:order_id');
    for (const caller of [alice, staff]) {
      const reply = await dispatch(detail, anExchange({ caller, params: { order_id } }));
      expect(reply.status).to.equal(200);
      expect(headerValue(reply.headers, 'ETag')).to.equal('"1"');
      expect((bodyOf(reply) as OrderBody).order_id).to.equal(order_id);
    }
    const again = await dispatch(detail, anExchange({ caller: alice, params: { order_id }, headers: { 'if-none-match': 'W/"1"' } }));
    expect(again.status).to.equal(304);
    expect(again.body.kind).to.equal('none');
  });

  it('GET /api/orders/{order_id} tells another customer, and an id that cannot be one, not_found', async () => {
    const { order_id } = await placeFor(alice);
    const detail = routeOf(routes, 'GET', '/api/orders/:order_id');
    expect(isDomainError(await refusalOf(detail, anExchange({ caller: bob, params: { order_id } })), 'not_found')).to.equal(true);
    for (const odd of [`ord_${'a'.repeat(200)}`, 'ord_ABC', "ord_1'; drop", 'prd_abc', '']) {
      const error = await refusalOf(detail, anExchange({ caller: staff, params: { order_id: odd } }));
      expect(error, odd).to.be.instanceOf(HttpProblem);
      expect((error as HttpProblem).code).to.equal('not_found');
    }
  });

  it('POST /api/orders/{order_id}/cancel cancels for the owner, again 200, and refuses a body field', async () => {
    const { order_id } = await placeFor(alice);
    const cancel = routeOf(routes, 'POST', '/api/orders/:order_id/cancel');
    const withField = await refusalOf(cancel, anExchange({ method: 'POST', caller: alice, params: { order_id }, body: { reason: 'x' } }));
    expect(isDomainError(withField, 'validation_failed')).to.equal(true);
    for (let i = 0; i < 2; i++) {
      const reply = await dispatch(cancel, anExchange({ method: 'POST', caller: alice, params: { order_id }, body: {} }));
      expect(reply.status).to.equal(200);
      expect(bodyOf(reply)).to.include({ status: 'cancelled', version: 2 });
    }
  });

  it('POST /api/staff/orders/{order_id}/status moves with If-Match current (also weak), and refuses a stale one with precondition_failed', async () => {
    const { order_id } = await placeFor(alice);
    const move = routeOf(routes, 'POST', '/api/staff/orders/:order_id/status');
    const accept = anExchange({ method: 'POST', caller: staff, params: { order_id }, body: { status: 'accepted' }, headers: { 'if-match': 'W/"1"' } });
    const accepted = await dispatch(move, accept);
    expect(bodyOf(accepted)).to.include({ status: 'accepted', version: 2 });
    expect(headerValue(accepted.headers, 'ETag')).to.equal('"2"');
    const stale = anExchange({ method: 'POST', caller: staff, params: { order_id }, body: { status: 'preparing' }, headers: { 'if-match': '"1"' } });
    expect(isDomainError(await refusalOf(move, stale), 'precondition_failed')).to.equal(true);
  });

  it('POST /api/staff/orders/{order_id}/status refuses a malformed If-Match and an unknown field with validation_failed', async () => {
    const { order_id } = await placeFor(alice);
    const move = routeOf(routes, 'POST', '/api/staff/orders/:order_id/status');
    for (const ifMatch of ['1', '"one"', '"1", "2"', '"0"', '']) {
      const exchange = anExchange({ method: 'POST', caller: staff, params: { order_id }, body: { status: 'accepted' }, headers: { 'if-match': ifMatch } });
      const error = await refusalOf(move, exchange);
      expect(isDomainError(error, 'validation_failed'), ifMatch).to.equal(true);
      expect((error as { details: { path: string }[] }).details[0]!.path).to.equal('If-Match');
    }
    const extra = anExchange({ method: 'POST', caller: staff, params: { order_id }, body: { status: 'accepted', note: 'x' } });
    expect((await refusalOf(move, extra)) as object).to.have.property('details').that.deep.equals([{ path: 'note', message: 'is not a known field' }]);
  });

  it('PATCH /api/staff/products/{product_id} needs a boolean `available` and answers the product', async () => {
    const route = routeOf(routes, 'PATCH', '/api/staff/products/:product_id');
    const target = (await storefront.listMenu.execute()).products.at(-1)!;
    for (const body of [{}, { available: 'no' }, { available: false, price: 1 }]) {
      expect(isDomainError(await refusalOf(route, anExchange({ method: 'PATCH', caller: staff, params: { product_id: target.productId }, body })), 'validation_failed')).to.equal(true);
    }
    const reply = await dispatch(route, anExchange({ method: 'PATCH', caller: staff, params: { product_id: target.productId }, body: { available: false } }));
    expect(bodyOf(reply)).to.include({ product_id: target.productId, available: false });
    const unknown = await refusalOf(route, anExchange({ method: 'PATCH', caller: staff, params: { product_id: 'prd_doesnotexist' }, body: { available: true } }));
    expect(isDomainError(unknown, 'not_found')).to.equal(true);
  });

  it('GET /api/store answers the store in snake_case with RFC 3339 or null dates', async () => {
    const reply = await dispatch(routeOf(routes, 'GET', '/api/store'), anExchange());
    expect(bodyOf(reply)).to.deep.equal({
      name: 'Storefront',
      currency: 'USD',
      prices_include_tax: false,
      time_zone: 'UTC',
      open_now: true,
      accepting_orders: true,
      opening_hours: null,
      next_change_at: null,
    });
  });

  describe('the staff guard (admission, from the route property)', () => {
    const admit = () => admission(storefront);
    const admitted = async (route: Route, caller: Caller | undefined): Promise<unknown> => {
      // The token is checked for real: an exchange with the caller's token header.
      const exchange = { caller: undefined as Caller | undefined, rateLimit: undefined, client: '192.0.2.7', header: (name: string) => (name === 'authorization' && caller !== undefined ? tokens.get(caller) : undefined) };
      try {
        await admit()(exchange, route);
        return exchange.caller;
      } catch (error) {
        return error;
      }
    };
    const tokens = new Map<Caller, string>();

    before(async () => {
      for (const [caller, email, password] of [[alice, 'alice@example.com', 'alice-password'], [staff, 'cook@example.com', 'cook-password']] as const) {
        tokens.set(caller, `Bearer ${(await storefront.login.execute({ email, password, client: 'test' })).accessToken}`);
      }
    });

    it('marks every /api/staff route, and only those, staff-only', () => {
      for (const route of routes) expect(route.access === 'staff', `${route.method} ${route.path}`).to.equal(route.path.startsWith('/api/staff/'));
    });

    it('refuses an anonymous request with unauthorized and a customer with forbidden, and admits staff', async () => {
      const queue = routeOf(routes, 'GET', '/api/staff/orders');
      expect(isDomainError(await admitted(queue, undefined), 'unauthorized')).to.equal(true);
      expect(isDomainError(await admitted(queue, alice), 'forbidden')).to.equal(true);
      expect((await admitted(queue, staff)) as Caller).to.have.nested.property('customer.role', 'staff');
    });
  });
});
