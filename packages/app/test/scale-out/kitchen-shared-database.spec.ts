/**
 * The kitchen and the customers across instances: two Storefront processes on one database, as a
 * deployment behind a load balancer runs them. What the kitchen sets on one instance (an item 86ed,
 * ordering paused) must hold on the other within 2 s (DECISIONS.md, "Store control"), although each
 * instance caches the menu (by revision) and the store state (for up to 1 s); an order moves under
 * one compare-and-set whichever instance is asked; one Idempotency-Key makes one order whichever
 * instances its retries reach; and a restarted instance finds everything as it was.
 *
 * On the run's shared store (shared-database.ts): PostgreSQL in postgres mode (the second pass of the
 * README's test command), else MongoDB with MONGODB_URI; skipped loudly without either. Both
 * instances start at once (both migrate: the adapter's advisory lock lets one do it); instance 1
 * seeds the demo data, instance 2 finds what instance 1 wrote.
 */
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { startInstance, type Instance } from './processes.js';
import { sharedDatabase, type SharedDatabase } from './shared-database.js';

const KITCHEN = { email: 'kitchen@example.com', password: 'kitchen-password' } as const;
const ALICE = { email: 'alice@example.com', password: 'alice-password' } as const;
/** What DECISIONS.md promises for another instance. */
const PROPAGATION_MS = 2_000;
const POLL_MS = 100;

interface ProductJson {
  readonly product_id: string;
  readonly available: boolean;
  readonly option_groups: readonly { readonly min: number }[];
}

describe('Scaling out the kitchen: two instances on one shared database', function () {
  this.timeout(60_000);
  let store: SharedDatabase | undefined;
  let env: Record<string, string>;
  let one: Instance | undefined;
  let two: Instance | undefined;
  let staff: string;
  let customer: string;

  before(async function () {
    const shared = await sharedDatabase('storefront_kitchen');
    if (typeof shared === 'string') {
      console.warn(`\n  !!! SKIPPING kitchen scale-out tests: they need a database shared by two instances, and ${shared}.\n`);
      return this.skip();
    }
    store = shared;
    env = { ...shared.env, RATE_LIMIT_MAX: '100000', LOGIN_RATE_LIMIT_MAX: '1000' };
    [one, two] = await Promise.all([startInstance({ ...env, STOREFRONT_DEMO_DATA: 'true' }), startInstance(env)]);
    // A persistent store seeds in the background after the start-up line: wait for the accounts.
    staff = await loginWhenSeeded(one.url, KITCHEN);
    customer = await loginWhenSeeded(two.url, ALICE);
    console.log(`      (two instances on ${shared.name} ${shared.shown})`);
  });

  after(async function () {
    await Promise.all([one?.stop(), two?.stop()]);
    await store?.drop();
  });

  it("hides an item 86ed on one instance from the other's menu within 2 s, under a new ETag, and refuses it in orders", async () => {
    const first = await fetch(`${two!.url}/api/products`);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag');
    expect(etag, 'the menu has an ETag').to.be.a('string');
    const product = ((await first.json()) as { products: ProductJson[] }).products.find((p) => p.available);
    expect(product, 'the demo menu has an available dish').to.not.equal(undefined);

    const patched = await send(one!.url, 'PATCH', `/api/staff/products/${product!.product_id}`, staff, { available: false });
    expect(patched.status, await patched.clone().text()).to.equal(200);
    expect(((await patched.json()) as ProductJson).available).to.equal(false);
    const changedAt = Date.now();

    const seen = await pollUntil(async () => {
      const menu = await fetch(`${two!.url}/api/products`, { headers: { 'If-None-Match': etag! } });
      if (menu.status !== 200) return undefined;
      const products = ((await menu.json()) as { products: ProductJson[] }).products;
      const now = products.find((p) => p.product_id === product!.product_id);
      return now?.available === false ? menu.headers.get('etag') : undefined;
    });
    expect(Date.now() - changedAt, 'instance 2 served the 86ed item for too long').to.be.at.most(PROPAGATION_MS);
    expect(seen).to.be.a('string').and.not.equal(etag);

    const order = await send(two!.url, 'POST', '/api/orders', customer, { items: [{ product_id: product!.product_id, quantity: 1 }] });
    expect(order.status).to.equal(422);
    expect(await order.json()).to.include({ error: 'product_unavailable' });
  });

  it('shows an 86 on the instance that made it at once, though each instance serves its own copy of the menu', async () => {
    const dish = await simpleDish(one!.url);
    for (const available of [false, true]) {
      const patched = await send(one!.url, 'PATCH', `/api/staff/products/${dish}`, staff, { available });
      expect(patched.status, await patched.clone().text()).to.equal(200);
      const menu = ((await (await fetch(`${one!.url}/api/products`)).json()) as { products: ProductJson[] }).products;
      expect(menu.find((p) => p.product_id === dish)?.available).to.equal(available);
      const order = await send(one!.url, 'POST', '/api/orders', customer, { items: [{ product_id: dish, quantity: 1 }] });
      expect(order.status).to.equal(available ? 201 : 422);
    }
  });

  it('refuses orders on the other instance with store_closed within 2 s of a pause, and takes them again after', async () => {
    const menu = ((await (await fetch(`${two!.url}/api/products`)).json()) as { products: ProductJson[] }).products;
    const dish = menu.find((p) => p.available && p.option_groups.every((g) => g.min === 0))!;
    const placeOne = (): Promise<Response> => send(two!.url, 'POST', '/api/orders', customer, { items: [{ product_id: dish.product_id, quantity: 1 }] });
    expect((await placeOne()).status, 'instance 2 takes orders before the pause').to.equal(201);

    const paused = await send(one!.url, 'PATCH', '/api/staff/store', staff, { accepting_orders: false });
    expect(paused.status, await paused.clone().text()).to.equal(200);
    expect(await paused.json()).to.include({ accepting_orders: false });
    const pausedAt = Date.now();

    const refusal = await pollUntil(async () => {
      const response = await placeOne();
      return response.status === 422 ? ((await response.json()) as { error: string }) : undefined;
    });
    expect(Date.now() - pausedAt, 'instance 2 kept taking orders for too long').to.be.at.most(PROPAGATION_MS);
    expect(refusal).to.include({ error: 'store_closed' });

    const resumed = await send(one!.url, 'PATCH', '/api/staff/store', staff, { accepting_orders: true });
    expect(resumed.status).to.equal(200);
    const resumedAt = Date.now();
    await pollUntil(async () => ((await placeOne()).status === 201 ? true : undefined));
    expect(Date.now() - resumedAt, 'instance 2 kept refusing orders for too long').to.be.at.most(PROPAGATION_MS);
  });

  it('makes one order of one Idempotency-Key sent to both instances at once, and replays it on either', async () => {
    const dish = await simpleDish(two!.url);
    const before = await orderTotal(one!.url, customer);
    const keys = Array.from({ length: 6 }, (_, i) => `scale-out-${Date.now()}-${i}`);
    const body = { items: [{ product_id: dish, quantity: 2 }] };
    const placed = new Map<string, Set<string>>();
    for (const key of keys) {
      const answers = await Promise.all([one!, two!].map((instance) => send(instance.url, 'POST', '/api/orders', customer, body, { 'Idempotency-Key': key })));
      for (const answer of answers) {
        const json = (await answer.json()) as { order_id?: string; error?: string };
        // The second may arrive while the first is in flight: 409 idempotency_key_in_use, a retry replays.
        if (answer.status === 409) expect(json.error).to.equal('idempotency_key_in_use');
        else expect(answer.status, JSON.stringify(json)).to.equal(201);
        if (json.order_id !== undefined) placed.set(key, new Set([...(placed.get(key) ?? []), json.order_id]));
      }
      for (const instance of [one!, two!]) {
        const replay = await send(instance.url, 'POST', '/api/orders', customer, body, { 'Idempotency-Key': key });
        expect(replay.status).to.equal(201);
        expect(replay.headers.get('idempotent-replayed')).to.equal('true');
        const { order_id: replayed } = (await replay.json()) as { order_id: string };
        placed.set(key, new Set([...(placed.get(key) ?? []), replayed]));
      }
      expect([...placed.get(key)!], `orders made for ${key}`).to.have.length(1);
    }
    expect(await orderTotal(two!.url, customer), 'orders of the customer, one per key').to.equal(before + keys.length);
  });

  it('moves an order under one compare-and-set whichever instance the kitchen asks', async () => {
    const dish = await simpleDish(one!.url);
    const placed = await send(one!.url, 'POST', '/api/orders', customer, { items: [{ product_id: dish, quantity: 1 }] });
    expect(placed.status).to.equal(201);
    const { order_id: orderId } = (await placed.json()) as { order_id: string };
    const move = (instance: Instance, status: string, version: number): Promise<Response> =>
      send(instance.url, 'POST', `/api/staff/orders/${orderId}/status`, staff, { status }, { 'If-Match': `"${version}"` });

    expect((await move(two!, 'accepted', 1)).status, 'accepted on instance 2').to.equal(200);
    const seen = await send(one!.url, 'GET', `/api/orders/${orderId}`, customer);
    expect(seen.headers.get('etag'), 'instance 1 reads the move at once').to.equal('"2"');
    expect(((await seen.json()) as { status: string }).status).to.equal('accepted');
    const stale = await move(one!, 'preparing', 1);
    expect(stale.status, 'a stale If-Match on the other instance').to.equal(412);
    expect(await stale.json()).to.include({ error: 'precondition_failed' });

    // Both instances at once from version 2: exactly one move wins.
    const race = await Promise.all([move(one!, 'preparing', 2), move(two!, 'preparing', 2)]);
    expect(race.map((r) => r.status).sort(), 'one 200, one 412').to.deep.equal([200, 412]);
    const final = await send(two!.url, 'GET', `/api/orders/${orderId}`, customer);
    expect(final.headers.get('etag')).to.equal('"3"');
  });

  it('keeps orders, accounts, an 86ed item and a pause through a restart of an instance', async () => {
    const menu = ((await (await fetch(`${one!.url}/api/products`)).json()) as { products: ProductJson[] }).products;
    const unavailable = menu.filter((p) => !p.available).map((p) => p.product_id);
    expect(unavailable, 'the item 86ed by the first test').to.not.deep.equal([]);
    const orders = await orderTotal(one!.url, customer);
    expect((await send(one!.url, 'PATCH', '/api/staff/store', staff, { accepting_orders: false })).status).to.equal(200);

    await two!.stop();
    two = await startInstance({ ...env, STOREFRONT_DEMO_DATA: 'true' }); // seeding again must not undo the kitchen's changes
    await loginWhenSeeded(two.url, ALICE);
    expect(await orderTotal(two.url, customer), 'the orders, with the token signed before the restart').to.equal(orders);
    const after = ((await (await fetch(`${two.url}/api/products`)).json()) as { products: ProductJson[] }).products;
    expect(after.filter((p) => !p.available).map((p) => p.product_id)).to.deep.equal(unavailable);
    expect(await (await fetch(`${two.url}/api/store`)).json()).to.include({ accepting_orders: false });
    expect((await send(one!.url, 'PATCH', '/api/staff/store', staff, { accepting_orders: true })).status).to.equal(200);
  });
});

/** An available dish that needs no options. */
async function simpleDish(url: string): Promise<string> {
  const menu = ((await (await fetch(`${url}/api/products`)).json()) as { products: ProductJson[] }).products;
  return menu.find((p) => p.available && p.option_groups.every((g) => g.min === 0))!.product_id;
}

async function orderTotal(url: string, token: string): Promise<number> {
  const response = await send(url, 'GET', '/api/orders?limit=1', token);
  expect(response.status).to.equal(200);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

function send(url: string, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * Polls `probe` every 100 ms until it answers something, for a little longer than the promised 2 s
 * (the caller asserts the time it took, so that a slow propagation fails with a clear message).
 */
async function pollUntil<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + PROPAGATION_MS + 1_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not seen within ${PROPAGATION_MS + 1_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Logs in once the account exists (seeding runs after the start-up line); the access token. */
async function loginWhenSeeded(url: string, account: { readonly email: string; readonly password: string }): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (response.status === 200) return ((await response.json()) as { access_token: string }).access_token;
    if (Date.now() > deadline) throw new Error(`${account.email} cannot log in on ${url}: ${response.status} ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
