/**
 * Placing orders with taxes (DECISIONS "Taxes") through the use cases on the memory stores: rates
 * per product or the store's, the delivery fee at its own rate, a tip never taxed, tax included in
 * the prices or added on top, and a change of the store's rate reaching new orders only.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { DeliveryZones, Product, StorefrontOptions } from '@storefront/domain';
import { createStorefront } from '@storefront/domain';
import { aPizzaDraft, aProductDraft } from '@storefront/testing';
import { aWorld, type World } from './world.js';

type Rate = NonNullable<Product['taxRate']>;
const rate = (basisPoints: number) => basisPoints as Rate;

/** Store settings: `storeRate` for products without one, the fee at `feeRate` (default the store's). */
function taxed(storeRate: number, pricesIncludeTax: boolean, feeRate = storeRate): StorefrontOptions {
  return { store: { taxes: { rate: rate(storeRate), pricesIncludeTax, deliveryFeeRate: rate(feeRate) } } };
}

/** One zone around (52.52, 13.41), fee 250, no minimum. */
const zones: DeliveryZones = {
  lookup: (lat, lng) => (Math.abs(lat - 52.52) <= 0.05 && Math.abs(lng - 13.41) <= 0.05 ? [{ name: 'Centre', fee: 250, minimumOrder: 0 }] : []),
};
const DELIVERY = { type: 'delivery', address: { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.52, lng: 13.41 } } as const;

/** Food at 7 %, drinks at 19 %, bread at the store's rate, a pizza (7 %) with a Large option (+400). */
async function aTaxedMenu(world: World) {
  const [schnitzel, lemonade, bread, pizza] = await world.adapters.menu.upsertByName([
    aProductDraft({ name: 'Schnitzel', category: 'Mains', price: 1250, taxRate: rate(700) }),
    aProductDraft({ name: 'Lemonade', category: 'Drinks', price: 390, taxRate: rate(1900) }),
    aProductDraft({ name: 'Bread', category: 'Sides', price: 300 }),
    aPizzaDraft({ name: 'Pizza', price: 1290, taxRate: rate(700) }),
  ]);
  return { schnitzel: schnitzel!, lemonade: lemonade!, bread: bread!, pizza: pizza! };
}

async function aStore(options: StorefrontOptions) {
  const world = aWorld(options, { deliveryZones: zones });
  return { world, menu: await aTaxedMenu(world) };
}

describe('PlaceOrder with taxes', () => {
  const customerId = 'cus_taxes';
  const viewer = { customerId, role: 'customer' } as const;

  it('takes the tax out of prices that include it, per rate, the fee at its own rate and the tip untaxed', async () => {
    const { world, menu } = await aStore(taxed(700, true, 1900));
    const { order } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: menu.schnitzel.productId, quantity: 2 }, { productId: menu.lemonade.productId, quantity: 1 }],
      fulfilment: DELIVERY,
      tip: 150,
    });
    expect(order.items.map((line) => [line.name, line.lineTotal, line.taxRate])).to.deep.equal([['Schnitzel', 2500, 700], ['Lemonade', 390, 1900]]);
    // 7 %: 2500 − round(2500 × 10000 / 10700) = 164; 19 %: 390 + 250 fee = 640, 640 − round(6400000 / 11900) = 102.
    expect(order.taxes).to.deep.equal([{ rate: 700, taxable: 2500, tax: 164 }, { rate: 1900, taxable: 640, tax: 102 }]);
    expect(order).to.include({ pricesIncludeTax: true, taxTotal: 266, subtotal: 2890, deliveryFee: 250, tip: 150, amount: 2890 + 250 + 150 });
    expect(await world.storefront.getOrder.execute({ viewer, orderId: order.orderId })).to.deep.equal(order);
  });

  it('adds the tax on top: amount = subtotal + fee + tip + tax total', async () => {
    const { world, menu } = await aStore(taxed(700, false, 1900));
    const { order } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: menu.schnitzel.productId, quantity: 2 }, { productId: menu.lemonade.productId, quantity: 1 }],
      fulfilment: DELIVERY,
      tip: 150,
    });
    // 7 %: round(2500 × 0.07) = 175; 19 %: round(640 × 0.19) = round(121.6) = 122.
    expect(order.taxes).to.deep.equal([{ rate: 700, taxable: 2500, tax: 175 }, { rate: 1900, taxable: 640, tax: 122 }]);
    expect(order).to.include({ pricesIncludeTax: false, taxTotal: 297, subtotal: 2890, amount: 2890 + 250 + 150 + 297 });
    expect((await world.storefront.listOrders.execute({ customerId })).items).to.deep.equal([order]);
  });

  it("taxes a product without a rate of its own at the store's", async () => {
    const { world, menu } = await aStore(taxed(1000, false));
    expect(menu.bread).to.not.have.property('taxRate');
    const { order } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: menu.bread.productId, quantity: 2 }, { productId: menu.lemonade.productId, quantity: 1 }],
    });
    expect(order.items.map((line) => line.taxRate)).to.deep.equal([1000, 1900]);
    expect(order.taxes).to.deep.equal([{ rate: 1000, taxable: 600, tax: 60 }, { rate: 1900, taxable: 390, tax: 74 }]);
    expect(order).to.include({ taxTotal: 134, amount: 990 + 134 });
  });

  it("taxes the options at their product's rate, not the store's", async () => {
    const { world, menu } = await aStore(taxed(1900, false));
    const size = menu.pizza.optionGroups[0]!;
    const large = size.options.find((option) => option.name === 'Large')!;
    const { order } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: menu.pizza.productId, quantity: 1, options: [large.optionId] }],
    });
    expect(order.items[0]).to.include({ unitPrice: 1690, lineTotal: 1690, taxRate: 700 });
    // round(1690 × 0.07) = round(118.3) = 118; a pickup has no fee, so no entry at the fee's 19 %.
    expect(order.taxes).to.deep.equal([{ rate: 700, taxable: 1690, tax: 118 }]);
    expect(order).to.include({ taxTotal: 118, amount: 1690 + 118 });
  });

  it("applies a change of the store's rate to new orders only: a placed order keeps its taxes", async () => {
    const { world, menu } = await aStore(taxed(700, false));
    const { order: before } = await world.storefront.placeOrder.execute({ customerId, items: [{ productId: menu.bread.productId, quantity: 2 }] });
    // The store restarted with another rate, over the same stores.
    const storefront = createStorefront({ ...world.adapters, deliveryZones: zones, hasher: world.hasher, tokens: world.tokens, clock: world.clock }, taxed(1900, false));
    const { order: after } = await storefront.placeOrder.execute({ customerId, items: [{ productId: menu.bread.productId, quantity: 2 }] });
    expect(after.taxes).to.deep.equal([{ rate: 1900, taxable: 600, tax: 114 }]);
    expect(after).to.include({ amount: 714 });
    const kept = await storefront.getOrder.execute({ viewer, orderId: before.orderId });
    expect(kept).to.deep.equal(before);
    expect(kept).to.deep.include({ taxes: [{ rate: 700, taxable: 600, tax: 42 }], taxTotal: 42, amount: 642 });
    expect(kept.items[0]!.taxRate).to.equal(700);
  });
});
