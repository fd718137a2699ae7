/**
 * PlaceOrder with option groups, on the memory store: pricing, the `invalid_options` refusals, and
 * the Idempotency-Key fingerprint that treats a line's options as a set.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { DomainError, Product } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import { aPizzaDraft, anIdempotencyClaim, aProductDraft, expectDomainError } from '@storefront/testing';
import { createHash } from 'node:crypto';
import { aWorld, type World } from './world.js';

const customerId = newId('cus');

/** Option ids of `product` by option name. */
function optionsOf(product: Product): Record<string, string> {
  return Object.fromEntries(product.optionGroups.flatMap((g) => g.options.map((o) => [o.name, o.optionId])));
}

async function withPizza(world: World): Promise<{ pizza: Product; soup: Product; o: Record<string, string> }> {
  const [pizza, soup] = await world.adapters.menu.upsertByName([aPizzaDraft({ price: 1290 }), aProductDraft({ name: 'Soup', price: 450 })]);
  return { pizza: pizza!, soup: soup!, o: optionsOf(pizza!) };
}

describe('PlaceOrder with options', () => {
  it('prices a Large with two toppings as price + 400 + 2 × 150, times the quantity, and keeps the options as priced', async () => {
    const world = aWorld();
    const { pizza, o } = await withPizza(world);
    const { order } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: pizza.productId, quantity: 3, options: [o['Mushrooms']!, o['Large']!, o['Extra cheese']!] }],
    });
    expect(order.items[0]).to.deep.include({ unitPrice: 1290 + 400 + 300, lineTotal: 3 * 1990 });
    expect(order.items[0]!.options).to.deep.equal([
      { optionId: o['Large'], name: 'Large', priceDelta: 400 },
      { optionId: o['Extra cheese'], name: 'Extra cheese', priceDelta: 150 },
      { optionId: o['Mushrooms'], name: 'Mushrooms', priceDelta: 150 },
    ]);
    expect(order.amount).to.equal(3 * 1990);
    expect((await world.storefront.listOrders.execute({ customerId })).items).to.deep.equal([order]);
  });

  it('refuses options that do not fit with invalid_options naming the group, and stores nothing', async () => {
    const world = aWorld();
    const { pizza, soup, o } = await withPizza(world);
    const cases: [string[], string][] = [
      [[], '"Size"'],
      [[o['Regular']!, o['Large']!], '"Size"'],
      [[o['Regular']!, o['Extra cheese']!, o['Mushrooms']!, o['Pepperoni']!, o['Olives']!], '"Extra toppings"'],
      [[o['Regular']!, o['Olives']!], 'Olives'],
      [[o['Regular']!, 'opt_unknown'], 'opt_unknown'],
    ];
    for (const [options, named] of cases) {
      const error = (await expectDomainError(
        world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 1 }, { productId: pizza.productId, quantity: 1, options }] }),
        'invalid_options',
      )) as DomainError;
      expect(error.details!.map((d) => d.path)).to.satisfy((paths: string[]) => paths.every((p) => p === 'items.1.options'));
      expect(error.details!.map((d) => d.message).join(' | ')).to.include(named);
    }
    const foreign = await expectDomainError(
      world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 1, options: [o['Large']!] }] }),
      'invalid_options',
    );
    expect((foreign as DomainError).details).to.deep.equal([{ path: 'items.0.options', message: `${o['Large']} is not an option of "Soup"` }]);
    expect((await world.storefront.listOrders.execute({ customerId })).total).to.equal(0);
  });

  describe('with an Idempotency-Key', () => {
    it('replays the order for the same options in another order, and refuses other options with idempotency_key_reused', async () => {
      const world = aWorld();
      const { pizza, o } = await withPizza(world);
      const line = (options: string[]) => ({ customerId, idempotencyKey: 'key-1', items: [{ productId: pizza.productId, quantity: 1, options }] });
      const first = await world.storefront.placeOrder.execute(line([o['Large']!, o['Mushrooms']!, o['Pepperoni']!]));
      const replay = await world.storefront.placeOrder.execute(line([o['Pepperoni']!, o['Mushrooms']!, o['Large']!]));
      expect(replay).to.deep.equal({ order: first.order, replayed: true });
      await expectDomainError(world.storefront.placeOrder.execute(line([o['Regular']!, o['Mushrooms']!, o['Pepperoni']!])), 'idempotency_key_reused');
      expect((await world.storefront.listOrders.execute({ customerId })).total).to.equal(1);
    });

    it('stores the fingerprint of a body without options as before options existed, so a key stored then still replays', async () => {
      const world = aWorld();
      const { soup } = await withPizza(world);
      const items = [{ productId: soup.productId, quantity: 2 }];
      const { order } = await world.storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'old-key' });
      const held = await world.adapters.idempotencyKeys.claim(anIdempotencyClaim({ customerId, key: 'old-key' }), world.clock.now());
      const before = createHash('sha256').update(JSON.stringify([[soup.productId, 2]])).digest('hex');
      expect(held.kind === 'held' && held.record.fingerprint).to.equal(before);
      const withEmptyOptions = await world.storefront.placeOrder.execute({ customerId, items: [{ ...items[0]!, options: [] }], idempotencyKey: 'old-key' });
      expect(withEmptyOptions).to.deep.equal({ order, replayed: true });
    });

    it('frees the key after an invalid_options refusal, for the corrected body', async () => {
      const world = aWorld();
      const { pizza, o } = await withPizza(world);
      const input = (options: string[]) => ({ customerId, idempotencyKey: 'key-2', items: [{ productId: pizza.productId, quantity: 1, options }] });
      await expectDomainError(world.storefront.placeOrder.execute(input([])), 'invalid_options');
      expect((await world.storefront.placeOrder.execute(input([o['Regular']!]))).replayed).to.equal(false);
    });
  });
});
