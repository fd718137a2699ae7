/**
 * Taxes through the MongoDB stores as they reach the wire (real driver, stand-in server: see
 * mongo-wire-fake.ts): a taxed order inserted is read back exactly from what the driver sent, and a
 * menu import sets a product's own rate or unsets it for a product that takes the store's.
 */
import type { MongoAdapters } from '@storefront/adapters-mongo';
import type { Product } from '@storefront/domain';
import { aProductDraft, aTaxedOrder } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { Long, type Document } from 'mongodb';
import { useStandIns } from './mongo-wire-adapters.js';
import type { FakeMongod } from './mongo-wire-fake.js';

describe('MongoDB stores: taxes on the wire (stand-in server)', function () {
  this.timeout(20_000);
  const standIns = useStandIns();
  let fake: FakeMongod;

  async function start(): Promise<MongoAdapters> {
    fake = await standIns.fake();
    return standIns.adapters(fake, 'taxes');
  }

  for (const pricesIncludeTax of [false, true]) {
    it(`round-trips an order with its taxes, tax total and lines' rates (prices ${pricesIncludeTax ? 'including' : 'excluding'} tax)`, async () => {
      const adapters = await start();
      const order = aTaxedOrder(pricesIncludeTax);
      await adapters.orders.insert(order);
      const inserted = fake.commands.find((c) => c.name === 'insert' && c.body['insert'] === 'orders');
      const [document] = inserted!.body['documents'] as Document[];
      expect(document).to.deep.include({ pricesIncludeTax, taxes: order.taxes, taxTotal: order.taxTotal });
      fake.answer = (c) =>
        c.name === 'find' && c.body['find'] === 'orders' ? { ok: 1, cursor: { id: Long.fromNumber(0), ns: 'taxes.orders', firstBatch: [document] } } : undefined;
      expect(await adapters.orders.findById(order.orderId)).to.deep.equal(order);
    });
  }

  it("sets a product's own rate on import, and unsets it for a product that takes the store's", async () => {
    const adapters = await start();
    const rated = aProductDraft({ taxRate: 1900 as NonNullable<Product['taxRate']> });
    const unrated = aProductDraft();
    await adapters.menu.upsertByName([rated, unrated]).catch(() => undefined);
    const update = fake.commands.find((c) => c.name === 'update' && c.body['update'] === 'products');
    const [first, second] = (update!.body['updates'] as Document[]).map((u) => u['u'] as Document);
    expect(first!['$set']).to.deep.include({ name: rated.name, taxRate: 1900 });
    expect(first).to.not.have.property('$unset');
    expect(second!['$set']).to.not.have.property('taxRate');
    expect(second!['$unset']).to.deep.equal({ taxRate: '' });
  });
});
