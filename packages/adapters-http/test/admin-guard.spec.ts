/**
 * The admin guard (`/api/admin/*`, DECISIONS "Roles"): admission refuses an anonymous request with
 * `unauthorized` and a customer's or staff token with `forbidden`, before any handler runs; an
 * admin is staff too. The tokens are real (memory adapters, demo accounts).
 */
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters, seedDemoData } from '@storefront/adapters-memory';
import type { Caller, Storefront } from '@storefront/domain';
import { createStorefront, isDomainError } from '@storefront/domain';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { admission } from '../src/admission.js';
import { verifyRoutes } from '../src/dispatch.js';
import { OrderJsonCache } from '../src/order-json-cache.js';
import { json } from '../src/reply.js';
import { unlisted, type Route } from '../src/route.js';
import { kitchenRoutes } from '../src/routes/kitchen.js';
import { routeOf } from './exchanges.js';

describe('the admin guard (admission, from the route property)', () => {
  let storefront: Storefront;
  const tokens = new Map<string, string>();
  const adminRoute = unlisted('/api/admin/probe', () => json(200, { ok: true }), { access: 'admin' });

  before(async () => {
    storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }) });
    await seedDemoData(storefront);
    for (const [who, email, password] of [
      ['customer', 'alice@example.com', 'alice-password'],
      ['staff', 'kitchen@example.com', 'kitchen-password'],
      ['admin', 'owner@example.com', 'owner-password'],
    ] as const) {
      tokens.set(who, `Bearer ${(await storefront.login.execute({ email, password, client: 'test' })).accessToken}`);
    }
  });

  /** The caller admission admitted, or what it threw. */
  const admitted = async (route: Route, who: string | undefined): Promise<unknown> => {
    const exchange = {
      caller: undefined as Caller | undefined,
      rateLimit: undefined,
      client: '192.0.2.9',
      header: (name: string) => (name === 'authorization' && who !== undefined ? tokens.get(who) : undefined),
    };
    try {
      await admission(storefront)(exchange, route);
      return exchange.caller;
    } catch (error) {
      return error;
    }
  };

  it('refuses an anonymous request with unauthorized', async () => {
    expect(isDomainError(await admitted(adminRoute, undefined), 'unauthorized')).to.equal(true);
  });

  it("refuses a customer's and a staff token with forbidden", async () => {
    expect(isDomainError(await admitted(adminRoute, 'customer'), 'forbidden')).to.equal(true);
    expect(isDomainError(await admitted(adminRoute, 'staff'), 'forbidden')).to.equal(true);
  });

  it('admits an admin, who is staff too (the kitchen routes admit it)', async () => {
    expect(await admitted(adminRoute, 'admin')).to.have.nested.property('customer.role', 'admin');
    const queue = routeOf(kitchenRoutes(storefront, new OrderJsonCache()), 'GET', '/api/staff/orders');
    expect(await admitted(queue, 'admin')).to.have.nested.property('customer.role', 'admin');
  });

  it('stops the start when a route under /api/admin/ is declared with a weaker access', () => {
    const open = unlisted('/api/admin/open', () => json(200, {}), { access: 'staff' });
    expect(() => verifyRoutes([open])).to.throw(/must have access 'admin'/);
    expect(() => verifyRoutes([adminRoute])).not.to.throw();
  });
});
