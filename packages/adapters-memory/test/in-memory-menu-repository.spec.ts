import { describe, it } from 'mocha';
import { expect } from 'chai';
import { aProductDraft } from '@storefront/testing';
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
  });
});
