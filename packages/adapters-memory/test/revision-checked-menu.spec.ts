/**
 * RevisionCheckedMenu (adapter-support) over one shared store, as two instances of the service on
 * one database see it: each keeps its copy, checks the revision at most once a second, and sees
 * its own changes at once. The memory menu stands in for the database's.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { MENU_REVISION_CHECK_MS, RevisionCheckedMenu } from '@storefront/adapter-support';
import type { MenuRepository } from '@storefront/domain';
import { aProductDraft, describeMenuRepositoryContract, FakeClock } from '@storefront/testing';
import { InMemoryMenuRepository } from '../src/index.js';

describeMenuRepositoryContract('RevisionCheckedMenu over InMemoryMenuRepository', async () => new RevisionCheckedMenu(new InMemoryMenuRepository(), new FakeClock()));

/** The store, counting the reads that would be round trips to a database. */
class CountedMenu extends InMemoryMenuRepository {
  reads = 0;
  override revision(): Promise<string> {
    this.reads++;
    return super.revision();
  }
  override list() {
    this.reads++;
    return super.list();
  }
  override findByIds(ids: readonly string[]) {
    this.reads++;
    return super.findByIds(ids);
  }
}

async function twoInstances() {
  const store = new CountedMenu();
  const clock = new FakeClock();
  const [soup] = await store.upsertByName([aProductDraft({ name: 'Soup' })]);
  const here = new RevisionCheckedMenu(store, clock);
  const there = new RevisionCheckedMenu(store, clock);
  return { store, clock, here, there, soupId: soup!.productId };
}

const availability = async (menu: MenuRepository, id: string) => (await menu.findByIds([id]))[0]?.available;

describe('RevisionCheckedMenu', () => {
  it('serves reads within a second from its copy, without asking the store', async () => {
    const { store, here, soupId } = await twoInstances();
    await here.list();
    const before = store.reads;
    for (let i = 0; i < 10; i++) {
      await here.list();
      await here.findByIds([soupId]);
      await here.revision();
    }
    expect(store.reads).to.equal(before);
  });

  it('shows an 86 made through it at once', async () => {
    const { here, soupId } = await twoInstances();
    expect(await availability(here, soupId)).to.equal(true);
    await here.setAvailability(soupId, false);
    expect(await availability(here, soupId)).to.equal(false);
    expect((await here.list()).find((p) => p.productId === soupId)?.available).to.equal(false);
  });

  it("shows another instance's 86 once its revision check is due, within a second", async () => {
    const { clock, here, there, soupId } = await twoInstances();
    expect(await availability(there, soupId)).to.equal(true);
    const revision = await there.revision();
    await here.setAvailability(soupId, false);
    clock.advance(MENU_REVISION_CHECK_MS - 1);
    expect(await availability(there, soupId)).to.equal(true);
    clock.advance(1);
    expect(await availability(there, soupId)).to.equal(false);
    expect(await there.revision()).to.not.equal(revision);
  });

  it('asks the store again after a failed check', async () => {
    const { store, clock, here, soupId } = await twoInstances();
    const revision = store.revision.bind(store);
    store.revision = () => Promise.reject(new Error('down'));
    clock.advance(MENU_REVISION_CHECK_MS);
    await here.list().then(
      () => expect.fail('should fail'),
      (error: Error) => expect(error.message).to.equal('down'),
    );
    store.revision = revision;
    expect(await availability(here, soupId)).to.equal(true);
  });
});
