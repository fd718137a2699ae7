/**
 * The kitchen's controls across instances: two Storefront processes on one MongoDB database, as a
 * deployment behind a load balancer runs them. What the kitchen sets on one instance (an item 86ed,
 * ordering paused) must hold on the other within 2 s (DECISIONS.md, "Store control"), although each
 * instance caches the menu (by revision) and the store state (for up to 1 s).
 *
 * MongoDB only: it needs MONGODB_URI answering (else one loud line and the suite is skipped).
 * Instance 1 seeds the demo data; instance 2 starts without it and finds what instance 1 wrote.
 */
import { randomBytes } from 'node:crypto';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { MongoClient } from 'mongodb';
import { probeTestMongo, redactUri, withDatabase } from '../mongo-mode.js';
import { startInstance, type Instance } from './processes.js';

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

describe('Scaling out the kitchen: two instances on one MongoDB database', function () {
  this.timeout(60_000);
  let admin: MongoClient | undefined;
  let database: string | undefined;
  let one: Instance | undefined;
  let two: Instance | undefined;
  let staff: string;
  let customer: string;

  before(async function () {
    const uri = process.env['MONGODB_URI']?.trim();
    if (uri === undefined || uri === '') {
      console.warn('\n  !!! SKIPPING kitchen scale-out tests: MONGODB_URI is not set (they need a MongoDB shared by two instances).\n');
      return this.skip();
    }
    // A URI that does not answer was already reported, loudly and once, by the probe.
    if ((await probeTestMongo(uri)) !== null) return this.skip();
    database = `storefront_test_kitchen_${process.pid}_${randomBytes(3).toString('hex')}`;
    admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    const shared = {
      STOREFRONT_STORE: 'mongo',
      MONGODB_URI: withDatabase(uri, database),
      // One signing key, as a deployment shares it: a token from one instance works on the other.
      TOKEN_SECRET_KEY: generateSigningKey(),
      RATE_LIMIT_MAX: '100000',
      LOGIN_RATE_LIMIT_MAX: '1000',
    };
    one = await startInstance({ ...shared, STOREFRONT_DEMO_DATA: 'true' });
    // A Mongo instance seeds in the background after its start-up line: wait for the accounts.
    staff = await loginWhenSeeded(one.url, KITCHEN);
    two = await startInstance(shared);
    customer = await loginWhenSeeded(two.url, ALICE);
    console.log(`      (two instances on ${redactUri(withDatabase(uri, database))})`);
  });

  after(async function () {
    await Promise.all([one?.stop(), two?.stop()]);
    try {
      if (database !== undefined) await admin?.db(database).dropDatabase();
    } finally {
      await admin?.close();
    }
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
});

function send(url: string, method: string, path: string, token: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
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
