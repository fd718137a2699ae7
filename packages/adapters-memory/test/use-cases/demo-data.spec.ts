import { describe, it } from 'mocha';
import { expect } from 'chai';
import { parseMenuDocument } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { DEMO_TAXES, demoCustomers, demoMenu, seedDemoData } from '../../src/index.js';
import { aWorld } from './world.js';

describe('Demo data', () => {
  it('is a valid menu of about 25 dishes over several categories, some unavailable', () => {
    const drafts = parseMenuDocument(demoMenu);
    expect(drafts.length).to.be.within(20, 30);
    expect(new Set(drafts.map((d) => d.category)).size).to.be.at.least(5);
    expect(drafts.filter((d) => !d.available).length).to.be.within(1, 2);
    expect(drafts.every((d) => d.currency === 'USD' && Number.isInteger(d.price) && d.price > 0)).to.equal(true);
  });

  it('seeds the menu and the demo accounts: Carol disabled, the kitchen account staff', async () => {
    const world = aWorld();
    const result = await seedDemoData(world.storefront);
    expect(result.products).to.equal(demoMenu.products.length);
    expect(result.customersCreated).to.deep.equal(demoCustomers.map((c) => c.email));
    const alice = await world.storefront.login.execute({ email: 'alice@example.com', password: 'alice-password', client: 'ip' });
    expect((await world.storefront.authenticate.execute(alice.accessToken)).customer.name).to.equal('Alice');
    await world.storefront.login.execute({ email: 'bob@example.com', password: 'bob-password', client: 'ip' });
    await expectDomainError(
      world.storefront.login.execute({ email: 'carol@example.com', password: 'carol-password', client: 'ip' }),
      'account_disabled',
    );
    const kitchen = await world.storefront.login.execute({ email: 'kitchen@example.com', password: 'kitchen-password', client: 'ip' });
    expect((await world.storefront.authenticate.execute(kitchen.accessToken)).customer.role).to.equal('staff');
    expect((await world.storefront.authenticate.execute(alice.accessToken)).customer.role).to.equal('customer');
    const owner = await world.storefront.login.execute({ email: 'owner@example.com', password: 'owner-password', client: 'ip' });
    expect((await world.storefront.authenticate.execute(owner.accessToken)).customer.role).to.equal('admin');
  });

  it('is a Berlin store: food at 7 %, drinks at 19 %, prices with tax, so that a receipt shows both lines', async () => {
    const drafts = parseMenuDocument(demoMenu);
    expect(drafts.every((d) => d.taxRate === (d.category === 'Drinks' ? 1900 : 700)), 'every product names its rate').to.equal(true);
    expect(DEMO_TAXES).to.deep.equal({ rate: 1900, pricesIncludeTax: true, deliveryFeeRate: 1900 });
    const world = aWorld({ store: { taxes: DEMO_TAXES } });
    await seedDemoData(world.storefront);
    const products = await world.adapters.menu.list();
    const skewers = products.find((p) => p.name === 'Chicken satay skewers')!;
    const lemonade = products.find((p) => p.name === 'Fresh lemonade')!;
    const customer = await world.storefront.registerCustomer.execute({ email: 'dana@example.com', name: 'Dana', password: 'dana-password' });
    const { order } = await world.storefront.placeOrder.execute({ customerId: customer.customerId, items: [{ productId: skewers.productId, quantity: 1 }, { productId: lemonade.productId, quantity: 2 }] });
    // 990 at 7 % included: 990 − round(925.23); 900 at 19 %: 900 − round(756.30).
    expect(order.taxes).to.deep.equal([{ rate: 700, taxable: 990, tax: 65 }, { rate: 1900, taxable: 900, tax: 144 }]);
    expect(order.amount).to.equal(1890);
  });

  it('can be seeded twice without error or duplicates', async () => {
    const world = aWorld();
    await seedDemoData(world.storefront);
    const revision = await world.adapters.menu.revision();
    const again = await seedDemoData(world.storefront);
    expect(again.customersCreated).to.deep.equal([]);
    expect((await world.adapters.menu.list()).length).to.equal(demoMenu.products.length);
    expect(await world.adapters.menu.revision()).to.equal(revision);
  });

  it('shows accent-insensitive search: "creme" finds the Crème brûlée', async () => {
    const world = aWorld();
    await seedDemoData(world.storefront);
    const page = await world.storefront.searchMenu.execute({ q: 'creme' });
    expect(page.items.map((p) => p.name)).to.include('Crème brûlée');
    const jalapeno = await world.storefront.searchMenu.execute({ q: 'jalapeno pop' });
    expect(jalapeno.items.map((p) => p.name)).to.deep.equal(['Jalapeño poppers']);
  });
});
