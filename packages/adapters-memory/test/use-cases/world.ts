/**
 * A Storefront wired from the memory adapters, a hand-moved clock and the real crypto adapters
 * (scrypt at a low cost, PASETO on an ephemeral key) on that clock; the hasher is counted.
 */
import { CachingTokenService, createCryptoAdapters, type CryptoAdapters, type PasetoTokenService } from '@storefront/adapters-crypto';
import type { Product, Storefront, StorefrontOptions, StorefrontPorts } from '@storefront/domain';
import { createStorefront } from '@storefront/domain';
import { aProductDraft, FakeClock } from '@storefront/testing';
import type { MemoryAdapters } from '../../src/index.js';
import { createMemoryAdapters } from '../../src/index.js';
import { CountingHasher } from './counting-hasher.js';

/** scrypt's cost in these tests: about a millisecond a hash. */
export const TEST_SCRYPT_LOG_N = 10;
/** The clock skew the token service allows past a token's `exp` (its default). */
export const TOKEN_CLOCK_TOLERANCE_MS = 5_000;

export interface World {
  readonly storefront: Storefront;
  readonly adapters: MemoryAdapters;
  readonly clock: FakeClock;
  readonly hasher: CountingHasher;
  readonly tokens: PasetoTokenService;
}

/** The real hasher and token service of these tests, on `clock`. */
export function cryptoOn(clock: FakeClock): CryptoAdapters {
  return createCryptoAdapters({ scrypt: { logN: TEST_SCRYPT_LOG_N }, clock });
}

/** `ports` replaces or adds ports (a mailer, a spied store), or makes them from the world's own adapters (a faulty store). */
export function aWorld(
  options: StorefrontOptions = {},
  portsOf: Partial<StorefrontPorts> | ((adapters: MemoryAdapters) => Partial<StorefrontPorts>) = {},
): World {
  const clock = new FakeClock();
  const adapters = createMemoryAdapters({ clock });
  const ports = typeof portsOf === 'function' ? portsOf(adapters) : portsOf;
  const crypto = cryptoOn(clock);
  const hasher = new CountingHasher(crypto.hasher);
  // Tokens behind the verified-token cache, as the app wires them.
  // The one-step write of a fresh key goes to the memory stores: not when `ports` replaces them.
  const { keyedOrderWrites, ...stores } = adapters;
  const oneStep = ports.orders === undefined && ports.idempotencyKeys === undefined ? { keyedOrderWrites } : {};
  const storefront = createStorefront({ ...stores, ...oneStep, hasher, tokens: new CachingTokenService(crypto.tokens, { clock }), clock, ...ports }, options);
  return { storefront, adapters, clock, hasher, tokens: crypto.tokens };
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
