/**
 * DECISIONS "Restarts never undo the kitchen's changes": two instances share one store and load
 * one menu file at every start. The kitchen 86s a dish and pauses ordering; every instance then
 * restarts (a deploy) with the same file, in which the dish is on sale and dearer. After the restart
 * the dish is still unavailable on both instances, ordering is still paused, and the price follows
 * the file.
 *
 * The shared store: the memory adapters shared by two containers in one process (as in
 * ../reliability/key-rotation.spec.ts), and, when MONGODB_URI answers, one MongoDB database shared
 * by both instances (else one loud line and that half is skipped).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { createMemoryAdapters, type MemoryAdapters } from '@storefront/adapters-memory';
import { expect } from 'chai';
import type { Container } from 'inversify';
import { after, before, describe, it } from 'mocha';
import { MongoClient } from 'mongodb';
import { TYPES } from '../../src/identifiers.js';
import { probeTestMongo, withDatabase } from '../mongo-mode.js';
import { call, composeStorefront, login, type ComposedServer } from '../reliability/support.js';

const KITCHEN = { email: 'kitchen@example.com', password: 'kitchen-password' } as const;
const DISH = 'House burger';

const menuWith = (burgerPrice: number) => ({
  products: [
    { name: DISH, description: 'Our burger.', category: 'Specials', price: burgerPrice, currency: 'USD', tags: [], available: true },
    { name: 'Garden salad', description: 'Greens.', category: 'Specials', price: 900, currency: 'USD', tags: [], available: true },
  ],
});

interface SharedDatabase {
  readonly env: Record<string, string>;
  readonly customize: (container: Container) => void;
  release(): Promise<void>;
}

interface ProductJson {
  readonly product_id: string;
  readonly name: string;
  readonly price: number;
  readonly available: boolean;
}

function describeRestart(storeName: string, shared: () => Promise<SharedDatabase | null>): void {
  describe(`Restarting two instances on one ${storeName} with the same menu file`, function () {
    this.timeout(60_000);
    let dir: string;
    let store: SharedDatabase | null = null;
    let instances: ComposedServer[] = [];
    let menuFile: string;
    // One signing key, as a deployment shares it: a token from one instance works on the other.
    const signingKey = generateSigningKey();

    const startBoth = async (): Promise<ComposedServer[]> => {
      const env = { ...store!.env, TOKEN_SECRET_KEY: signingKey, STOREFRONT_DEMO_DATA: 'true', STOREFRONT_MENU_FILE: menuFile };
      const first = await composeStorefront(env, store!.customize);
      const second = await composeStorefront(env, store!.customize);
      return [first, second];
    };
    const stopAll = async (): Promise<void> => {
      await Promise.all(instances.map((instance) => instance.close()));
      instances = [];
    };

    before(async function () {
      store = await shared();
      if (store === null) return this.skip();
      dir = mkdtempSync(join(tmpdir(), 'storefront-restart-'));
      menuFile = join(dir, 'menu.json');
      writeFileSync(menuFile, JSON.stringify(menuWith(1500)));
    });
    after(async () => {
      await stopAll();
      await store?.release();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    it("keeps an 86'd dish unavailable and ordering paused after every instance restarts, while the price follows the file", async () => {
      instances = await startBoth();
      const staff = (await login(instances[0]!.url, KITCHEN.email, KITCHEN.password)).access_token;
      const burger = (await products(instances[1]!.url)).find((p) => p.name === DISH)!;
      expect(burger).to.include({ available: true, price: 1500 });

      const off = await call(instances[0]!.url, `/api/staff/products/${burger.product_id}`, { method: 'PATCH', token: staff, json: { available: false } });
      expect(off.status, off.text).to.equal(200);
      const paused = await call(instances[1]!.url, '/api/staff/store', { method: 'PATCH', token: staff, json: { accepting_orders: false } });
      expect(paused.status, paused.text).to.equal(200);

      await stopAll();
      writeFileSync(menuFile, JSON.stringify(menuWith(1600)));
      instances = await startBoth();

      for (const [i, instance] of instances.entries()) {
        const after = (await products(instance.url)).find((p) => p.name === DISH)!;
        expect(after, `instance ${i + 1}`).to.include({ product_id: burger.product_id, available: false, price: 1600 });
        const state = await call(instance.url, '/api/store');
        expect(state.json, `instance ${i + 1}: ${state.text}`).to.include({ accepting_orders: false });
      }
    });
  });
}

async function products(url: string): Promise<ProductJson[]> {
  const response = await call(url, '/api/products');
  expect(response.status, response.text).to.equal(200);
  return response.json.products as ProductJson[];
}

describeRestart('memory store (shared by two containers)', async () => {
  const adapters: MemoryAdapters = createMemoryAdapters();
  return {
    env: { STOREFRONT_STORE: 'memory' },
    customize: (container) => {
      container.rebind<MemoryAdapters>(TYPES.MemoryAdapters).toConstantValue(adapters);
    },
    release: async () => undefined,
  };
});

describeRestart('MongoDB database', async () => {
  const uri = process.env['MONGODB_URI']?.trim();
  if (uri === undefined || uri === '') {
    console.warn('\n  !!! SKIPPING the MongoDB restart test: MONGODB_URI is not set (it needs a MongoDB shared by two instances).\n');
    return null;
  }
  if ((await probeTestMongo(uri)) !== null) return null;
  const database = `storefront_test_restart_${process.pid}_${randomBytes(3).toString('hex')}`;
  return {
    env: { STOREFRONT_STORE: 'mongo', MONGODB_URI: withDatabase(uri, database) },
    customize: () => undefined,
    release: async () => {
      const admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
      try {
        await admin.db(database).dropDatabase();
      } finally {
        await admin.close();
      }
    },
  };
});
