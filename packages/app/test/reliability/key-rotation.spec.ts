/**
 * Rotating the token signing key during a rolling deploy, as the README's three steps say, with two
 * instances side by side at each moment of the deploy (one updated, one not yet):
 *
 *   step 1: every instance adds the new key as verify-only (TOKEN_VERIFY_KEYS=<new k4.public>);
 *   step 2: every instance signs with the new key and keeps the old one verify-only;
 *   step 3: 15 minutes later (the access token lifetime), every instance drops the old key.
 *
 * A token issued by either instance must be accepted by the other, whichever is behind. The two
 * instances are two containers and HTTP servers over one store (the memory adapters shared between
 * them, as a MongoDB is shared by real instances), so a session made on one is live on the other.
 */
import { publicKeyOf } from '@storefront/adapters-crypto';
import { createMemoryAdapters, type MemoryAdapters } from '@storefront/adapters-memory';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { TYPES } from '../../src/identifiers.js';
import { newSigningKey } from '../e2e/tokens.js';
import { memoryOnly } from '../mongo-mode.js';
import { ALICE, call, composeStorefront, expectJsonError, login, type ComposedServer } from './support.js';

describe('Rotating the token signing key during a rolling deploy', function () {
  memoryOnly(this, 'its instances are servers on one memory store; in mongo and postgres mode every server gets a database of its own');
  this.timeout(60_000);
  const oldKey = newSigningKey().paserk;
  const newKey = newSigningKey().paserk;
  let newPublic: string;
  let oldPublic: string;
  const store: MemoryAdapters = createMemoryAdapters();
  const servers: ComposedServer[] = [];

  /** The key sets of the deploy's stages. */
  const stage = {
    before: () => ({ TOKEN_SECRET_KEY: oldKey }),
    step1: () => ({ TOKEN_SECRET_KEY: oldKey, TOKEN_VERIFY_KEYS: newPublic }),
    step2: () => ({ TOKEN_SECRET_KEY: newKey, TOKEN_VERIFY_KEYS: oldPublic }),
    step3: () => ({ TOKEN_SECRET_KEY: newKey }),
  };
  const instances = {} as Record<keyof typeof stage, ComposedServer>;

  before(async () => {
    [newPublic, oldPublic] = await Promise.all([publicKeyOf(newKey), publicKeyOf(oldKey)]);
    let seed = true;
    for (const name of Object.keys(stage) as (keyof typeof stage)[]) {
      const server = await composeStorefront({ ...stage[name](), STOREFRONT_DEMO_DATA: String(seed) }, (container) => {
        container.rebind<MemoryAdapters>(TYPES.MemoryAdapters).toConstantValue(store);
      });
      seed = false;
      servers.push(server);
      instances[name] = server;
    }
  });
  after(() => Promise.all(servers.map((server) => server.close())));

  /**
   * A user logs in on `issuer`, and the load balancer sends the next requests to `other`: the access
   * token works there, the refresh token too, and the access token `other` hands out works back on
   * `issuer`.
   */
  async function expectInterchangeable(issuer: ComposedServer, other: ComposedServer, what: string): Promise<void> {
    const tokens = await login(issuer.url, ALICE.email, ALICE.password);
    const me = await call(other.url, '/api/me', { token: tokens.access_token });
    expect(me.status, `${what}: a token issued by one instance, on the other: ${me.text}`).to.equal(200);
    expect(me.json.email).to.equal(ALICE.email);
    const refreshed = await call(other.url, '/api/auth/refresh', { json: { refresh_token: tokens.refresh_token } });
    expect(refreshed.status, `${what}: refresh on the other instance: ${refreshed.text}`).to.equal(200);
    const back = await call(issuer.url, '/api/me', { token: refreshed.json.access_token as string });
    expect(back.status, `${what}: the other instance's token, back on the first: ${back.text}`).to.equal(200);
  }

  async function bothWays(a: ComposedServer, b: ComposedServer, what: string): Promise<void> {
    await expectInterchangeable(a, b, what);
    await expectInterchangeable(b, a, what);
  }

  it('step 1: an instance that verifies the new key and one not yet updated accept each other\'s tokens', async () => {
    await bothWays(instances.before, instances.step1, 'step 1');
  });

  it('step 2: an instance signing with the new key and one still signing with the old accept each other\'s tokens', async () => {
    await bothWays(instances.step1, instances.step2, 'step 2');
  });

  it('step 3: an instance without the old key and one still holding it accept each other\'s tokens', async () => {
    await bothWays(instances.step2, instances.step3, 'step 3');
  });

  it('after step 3, a token of the old key is refused (by then every one has expired)', async () => {
    const oldToken = (await login(instances.step1.url, ALICE.email, ALICE.password)).access_token;
    expect((await call(instances.step2.url, '/api/me', { token: oldToken })).status).to.equal(200);
    expectJsonError(await call(instances.step3.url, '/api/me', { token: oldToken }), 401, 'invalid_token');
  });

  it('skipping step 1 logs users out mid-deploy: an instance not yet updated refuses the new key\'s tokens', async () => {
    // What the README used to say: set the new key and move the old one to the verify-only list at once.
    const newToken = (await login(instances.step2.url, ALICE.email, ALICE.password)).access_token;
    expectJsonError(await call(instances.before.url, '/api/me', { token: newToken }), 401, 'invalid_token');
  });
});
