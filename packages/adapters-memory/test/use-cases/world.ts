/** A Storefront wired from the memory adapters, a hand-moved clock and the fakes of fakes.ts. */
import type { Product, Storefront, StorefrontOptions } from '@storefront/domain';
import { createStorefront } from '@storefront/domain';
import { aProductDraft } from '@storefront/testing';
import type { MemoryAdapters } from '../../src/index.js';
import { createMemoryAdapters } from '../../src/index.js';
import { FakeClock } from '../fake-clock.js';
import { FakePasswordHasher, FakeTokenService } from './fakes.js';

export interface World {
  readonly storefront: Storefront;
  readonly adapters: MemoryAdapters;
  readonly clock: FakeClock;
  readonly hasher: FakePasswordHasher;
}

export function aWorld(options: StorefrontOptions = {}): World {
  const clock = new FakeClock();
  const adapters = createMemoryAdapters({ clock });
  const hasher = new FakePasswordHasher();
  const storefront = createStorefront({ ...adapters, hasher, tokens: new FakeTokenService(clock), clock }, options);
  return { storefront, adapters, clock, hasher };
}

/** Puts a soup (450), a pizza (1290) and an unavailable cake on the menu. */
export async function withMenu(world: World): Promise<{ soup: Product; pizza: Product; cake: Product }> {
  const [soup, pizza, cake] = await world.adapters.menu.upsertByName([
    aProductDraft({ name: 'Tomato soup', category: 'Starters', price: 450 }),
    aProductDraft({ name: 'Pizza Margherita', category: 'Pizza', price: 1290 }),
    aProductDraft({ name: 'Cheesecake', category: 'Desserts', price: 870, available: false }),
  ]);
  return { soup: soup!, pizza: pizza!, cake: cake! };
}

/** Registers an active customer and logs them in. */
export async function aLoggedInCustomer(world: World, email = 'dana@example.com', password = 'dana-password') {
  const profile = await world.storefront.registerCustomer.execute({ email, name: 'Dana', password });
  const pair = await world.storefront.login.execute({ email, password, client: '203.0.113.7' });
  return { profile, pair, email, password };
}
