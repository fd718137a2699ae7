import { describe, it } from 'mocha';
import { expect } from 'chai';
import { sha256Hex } from '@storefront/adapters-crypto';
import { createStorefront } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aWorld, withMenu } from './world.js';

describe('PlaceOrder with a host-given fingerprint hash', () => {
  const customerId = newId('cus');

  it('replays a key stored under the Web Crypto fingerprint once the host hashes synchronously', async () => {
    // Keys stored before an upgrade (default hash) must replay after it (node:crypto's hash).
    const world = aWorld();
    const { soup } = await withMenu(world);
    const input = { customerId, items: [{ productId: soup.productId, quantity: 2 }], idempotencyKey: 'upgrade-1' };
    const first = await world.storefront.placeOrder.execute(input);
    const upgraded = createStorefront({ ...world.adapters, clock: world.clock, hasher: world.hasher, tokens: world.tokens }, { orders: { sha256Hex } });
    const again = await upgraded.placeOrder.execute(input);
    expect(again).to.deep.equal({ order: first.order, replayed: true });
    await expectDomainError(upgraded.placeOrder.execute({ ...input, items: [{ productId: soup.productId, quantity: 3 }] }), 'idempotency_key_reused');
  });

  it('hashes the fingerprint with the given function, synchronously', async () => {
    let calls = 0;
    const world = aWorld({ orders: { sha256Hex: (text) => (calls++, sha256Hex(text)) } });
    const { soup } = await withMenu(world);
    await world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 1 }], idempotencyKey: 'k' });
    expect(calls).to.equal(1);
  });
});
