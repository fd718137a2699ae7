import { describe, it } from 'mocha';
import { expect } from 'chai';
import { aPizzaDraft, aProductDraft } from '@storefront/testing';
import { InMemoryMenuRepository } from '../src/index.js';

describe('InMemoryMenuRepository', () => {
  it('keeps its revision when an upsert changes nothing, so cached ETags stay valid', async () => {
    const menu = new InMemoryMenuRepository();
    const drafts = [aProductDraft(), aProductDraft()];
    const first = await menu.upsertByName(drafts);
    const revision = await menu.revision();
    const again = await menu.upsertByName(drafts);
    expect(await menu.revision()).to.equal(revision);
    expect(again).to.deep.equal(first);
  });

  it('keeps its revision when the same option groups are upserted again, and changes it when an option changes', async () => {
    const menu = new InMemoryMenuRepository();
    const pizza = aPizzaDraft();
    const [first] = await menu.upsertByName([pizza]);
    const revision = await menu.revision();
    const [again] = await menu.upsertByName([{ ...pizza, optionGroups: pizza.optionGroups.map((g) => ({ ...g })) }]);
    expect(again).to.equal(first);
    expect(await menu.revision()).to.equal(revision);
    const [size, toppings] = pizza.optionGroups;
    await menu.upsertByName([{ ...pizza, optionGroups: [size!, { ...toppings!, max: 2 }] }]);
    expect(await menu.revision()).to.not.equal(revision);
  });

  it('starts each instance on a revision of its own, so a restart invalidates cached ETags', async () => {
    expect(await new InMemoryMenuRepository().revision()).to.not.equal(await new InMemoryMenuRepository().revision());
  });

  it('hands out frozen products', async () => {
    const menu = new InMemoryMenuRepository();
    await menu.upsertByName([aProductDraft()]);
    const [product] = await menu.list();
    expect(Object.isFrozen(await menu.list())).to.equal(true);
    expect(Object.isFrozen(product)).to.equal(true);
    expect(Object.isFrozen(product!.tags)).to.equal(true);
    const [pizza] = await menu.upsertByName([aPizzaDraft()]);
    expect(Object.isFrozen(pizza!.optionGroups) && Object.isFrozen(pizza!.optionGroups[0]!.options[0])).to.equal(true);
  });
});
