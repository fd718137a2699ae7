import { describe, it } from 'mocha';
import { expect } from 'chai';
import { parseMenuDocument } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { demoCustomers, demoMenu, seedDemoData } from '../../src/index.js';
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
