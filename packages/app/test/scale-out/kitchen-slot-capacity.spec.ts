/**
 * Slot capacity across instances: two Storefront processes on one shared database (PostgreSQL in
 * postgres mode, else MongoDB with MONGODB_URI; skipped loudly without either), a slot of 10 places,
 * 50 orders for it at once split between the two. Exactly 10 are placed, whichever instance took
 * them; cancelling one lets exactly one more in.
 */
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { startInstance, type Instance } from './processes.js';
import { sharedDatabase, type SharedDatabase } from './shared-database.js';

const ALICE = { email: 'alice@example.com', password: 'alice-password' } as const;

describe('Slot capacity across two instances on one shared database', function () {
  this.timeout(60_000);
  let store: SharedDatabase | undefined;
  let one: Instance | undefined;
  let two: Instance | undefined;
  let token = '';
  let productId = '';

  before(async function () {
    const shared = await sharedDatabase('storefront_slots');
    if (typeof shared === 'string') {
      console.warn(`\n  !!! SKIPPING slot capacity scale-out tests: they need a database shared by two instances, and ${shared}.\n`);
      return this.skip();
    }
    store = shared;
    const env = { ...shared.env, RATE_LIMIT_MAX: '100000', LOGIN_RATE_LIMIT_MAX: '1000', STOREFRONT_SLOT_CAPACITY: '10' };
    [one, two] = await Promise.all([startInstance({ ...env, STOREFRONT_DEMO_DATA: 'true' }), startInstance(env)]);
    token = await loginWhenSeeded(one.url);
    const menu = (await (await fetch(`${two.url}/api/products`)).json()) as { products: { product_id: string; available: boolean; option_groups: unknown[] }[] };
    productId = menu.products.find((p) => p.available && p.option_groups.length === 0)!.product_id;
  });

  after(async function () {
    await Promise.all([one?.stop(), two?.stop()]);
    await store?.drop();
  });

  it('places exactly 10 of 50 simultaneous orders for a slot of 10 across both instances; a cancel frees one place', async () => {
    const time = new Date(Date.now() + 2 * 86_400_000);
    time.setUTCHours(12, 0, 0, 0);
    const order = (i: number) =>
      fetch(`${[one, two][i % 2]!.url}/api/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }], fulfilment: { type: 'pickup', time: time.toISOString() } }),
      });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => order(i)));
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { order_id?: string; error?: string }[];
    expect(answers.filter((answer) => answer.status === 201)).to.have.length(10);
    expect(answers.filter((answer) => answer.status === 422)).to.have.length(40);
    expect(new Set(bodies.filter((body) => body.error !== undefined).map((body) => body.error))).to.deep.equal(new Set(['slot_unavailable']));

    const placed = bodies.find((body) => body.order_id !== undefined)!.order_id!;
    const cancelled = await fetch(`${two!.url}/api/orders/${placed}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(cancelled.status).to.equal(200);
    const again = await Promise.all(Array.from({ length: 6 }, (_, i) => order(i)));
    expect(again.filter((answer) => answer.status === 201)).to.have.length(1);
  });
});

async function loginWhenSeeded(url: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ALICE) });
    if (response.status === 200) return ((await response.json()) as { access_token: string }).access_token;
    if (Date.now() > deadline) throw new Error(`alice cannot log in on ${url}: ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
