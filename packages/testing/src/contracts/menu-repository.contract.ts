/**
 * What every MenuRepository must do. The factory may hand back a store that already holds other
 * tests' products (a shared database): tests only look at the products they created.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, type MenuRepository, type Product } from '@storefront/domain';
import { compareProducts } from '@storefront/domain/adapter-kit';
import { rejectionOf } from '../assertions.js';
import { aPizzaDraft, aProductDraft, uniqueSuffix } from '../builders.js';

export function describeMenuRepositoryContract(name: string, factory: () => Promise<MenuRepository>): void {
  describe(`${name} (MenuRepository contract)`, () => {
    const only = (products: readonly Product[], mine: readonly Product[]): Product[] => {
      const ids = new Set(mine.map((p) => p.productId));
      return products.filter((p) => ids.has(p.productId));
    };

    it('saves new products with prd_ ids and returns them with every field of their draft', async () => {
      const menu = await factory();
      const drafts = [aProductDraft(), aProductDraft({ tags: ['a', 'b'], available: false })];
      const saved = await menu.upsertByName(drafts);
      expect(saved).to.have.length(2);
      saved.forEach((product, i) => {
        expect(product.productId).to.match(/^prd_/);
        const { productId: _id, ...rest } = product;
        expect(rest).to.deep.equal(drafts[i]);
      });
      expect(new Set(saved.map((p) => p.productId)).size).to.equal(2);
    });

    it('saves option groups with grp_ and opt_ ids and every field of their drafts, and reads them back', async () => {
      const menu = await factory();
      const draft = aPizzaDraft();
      const [saved] = await menu.upsertByName([draft]);
      expect(saved!.optionGroups.map(({ groupId: _g, options, ...group }) => ({ ...group, options: options.map(({ optionId: _o, ...option }) => option) }))).to.deep.equal(
        draft.optionGroups,
      );
      const ids = saved!.optionGroups.flatMap((g) => [g.groupId, ...g.options.map((o) => o.optionId)]);
      expect(ids.filter((id) => /^grp_/.test(id))).to.have.length(2);
      expect(ids.filter((id) => /^opt_/.test(id))).to.have.length(6);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(await menu.findByIds([saved!.productId])).to.deep.equal([saved]);
      expect(only(await menu.list(), [saved!])).to.deep.equal([saved]);
    });

    it('keeps the ids of option groups and options when the same menu is imported again, or an option changes', async () => {
      const menu = await factory();
      const draft = aPizzaDraft();
      const [first] = await menu.upsertByName([draft]);
      const [again] = await menu.upsertByName([{ ...draft }]);
      expect(again).to.deep.equal(first);
      const [size, toppings] = draft.optionGroups;
      const dearer = { ...size!, options: size!.options.map((o) => (o.name === 'Large' ? { ...o, priceDelta: 500 } : o)) };
      const [changed] = await menu.upsertByName([{ ...draft, optionGroups: [dearer, toppings!] }]);
      expect(changed!.optionGroups[0]!.options[1]).to.deep.equal({ ...first!.optionGroups[0]!.options[1]!, priceDelta: 500 });
      expect(changed!.optionGroups.map((g) => g.groupId)).to.deep.equal(first!.optionGroups.map((g) => g.groupId));
      expect((await menu.findByIds([first!.productId]))[0]).to.deep.equal(changed);
    });

    it('removes option groups a new import leaves out, and keeps them through an availability change', async () => {
      const menu = await factory();
      const draft = aPizzaDraft();
      const [first] = await menu.upsertByName([draft]);
      const off = await menu.setAvailability(first!.productId, false);
      expect(off!.optionGroups).to.deep.equal(first!.optionGroups);
      const [plain] = await menu.upsertByName([{ ...draft, optionGroups: [] }]);
      expect(plain!.optionGroups).to.deep.equal([]);
      expect((await menu.findByIds([first!.productId]))[0]!.optionGroups).to.deep.equal([]);
    });

    it('lists every product, available or not, by category and then name', async () => {
      const menu = await factory();
      const tag = uniqueSuffix();
      const saved = await menu.upsertByName([
        aProductDraft({ category: `Pizza ${tag}`, name: `Margherita ${tag}` }),
        aProductDraft({ category: `Desserts ${tag}`, name: `Tiramisu ${tag}`, available: false }),
        aProductDraft({ category: `Pizza ${tag}`, name: `Diavola ${tag}` }),
      ]);
      const listed = only(await menu.list(), saved);
      expect(listed.map((p) => p.name)).to.deep.equal([`Tiramisu ${tag}`, `Diavola ${tag}`, `Margherita ${tag}`]);
      expect(listed).to.deep.equal([...saved].sort(compareProducts));
    });

    it('updates a product matched by name regardless of case and keeps its id', async () => {
      const menu = await factory();
      const [first] = await menu.upsertByName([aProductDraft({ name: `Soup ${uniqueSuffix()}`, price: 500 })]);
      const [second] = await menu.upsertByName([aProductDraft({ name: first!.name.toUpperCase(), price: 650 })]);
      expect(second!.productId).to.equal(first!.productId);
      expect(second!.price).to.equal(650);
      const listed = only(await menu.list(), [first!]);
      expect(listed).to.have.length(1);
      expect(listed[0]!.price).to.equal(650);
    });

    it("keeps a product's tax rate, and a product without one without one, through every read, a re-import and an availability change", async () => {
      const menu = await factory();
      const rate = (basisPoints: number) => basisPoints as NonNullable<Product['taxRate']>;
      const drafts = [aProductDraft({ taxRate: rate(1900) }), aPizzaDraft({ taxRate: rate(0) }), aProductDraft()];
      const saved = await menu.upsertByName(drafts);
      expect(saved.map((p) => p.taxRate)).to.deep.equal([1900, 0, undefined]);
      expect(saved[2]).to.not.have.property('taxRate');
      expect(await menu.findByIds(saved.map((p) => p.productId))).to.have.deep.members(saved);
      expect(only(await menu.list(), saved)).to.have.deep.members(saved);
      const revision = await menu.revision();
      const [changed, unchanged, gained] = await menu.upsertByName([{ ...drafts[0]!, taxRate: rate(700) }, drafts[1]!, { ...drafts[2]!, taxRate: rate(1900) }]);
      expect(await menu.revision()).to.not.equal(revision);
      expect([changed!.taxRate, unchanged!.taxRate, gained!.taxRate]).to.deep.equal([700, 0, 1900]);
      const { taxRate: _dropped, ...withoutRate } = drafts[0]!;
      const [lost] = await menu.upsertByName([withoutRate]);
      expect(lost).to.not.have.property('taxRate');
      const off = await menu.setAvailability(gained!.productId, false);
      expect(off).to.deep.equal({ ...gained, available: false });
      expect(await menu.findByIds([lost!.productId, gained!.productId])).to.have.deep.members([lost, off]);
    });

    describe("a product's availability (the kitchen's, once the product exists)", () => {
      it('takes the availability of a new product from its draft', async () => {
        const menu = await factory();
        const saved = await menu.upsertByName([aProductDraft({ available: true }), aProductDraft({ available: false })]);
        expect(saved.map((p) => p.available)).to.deep.equal([true, false]);
        expect((await menu.findByIds(saved.map((p) => p.productId))).map((p) => [p.productId, p.available])).to.have.deep.members(
          saved.map((p) => [p.productId, p.available]),
        );
      });

      it("keeps a dish the kitchen 86'd unavailable when the same menu is upserted again, as a restart re-imports its menu file", async () => {
        const menu = await factory();
        const draft = aPizzaDraft({ available: true });
        const [created] = await menu.upsertByName([draft]);
        await menu.setAvailability(created!.productId, false);
        const [again] = await menu.upsertByName([{ ...draft }]);
        expect(again).to.deep.equal({ ...created, available: false });
        expect(await menu.findByIds([created!.productId])).to.deep.equal([again]);
        expect(only(await menu.list(), [created!])).to.deep.equal([again]);
      });

      it('keeps a dish the kitchen put back on sale available when the menu says it is not', async () => {
        const menu = await factory();
        const draft = aProductDraft({ available: false });
        const [created] = await menu.upsertByName([draft]);
        await menu.setAvailability(created!.productId, true);
        const [again] = await menu.upsertByName([{ ...draft }]);
        expect(again!.available).to.equal(true);
        expect((await menu.findByIds([created!.productId]))[0]!.available).to.equal(true);
      });

      it("updates every other field of an 86'd dish from the draft and leaves it unavailable", async () => {
        const menu = await factory();
        const draft = aPizzaDraft();
        const [created] = await menu.upsertByName([draft]);
        await menu.setAvailability(created!.productId, false);
        const [size, toppings] = draft.optionGroups;
        const noLarge = { ...size!, options: size!.options.map((o) => (o.name === 'Large' ? { ...o, available: false } : o)) };
        const changed = { ...draft, description: 'Now with basil', price: draft.price + 100, tags: ['new'], optionGroups: [noLarge, toppings!], available: true };
        const [updated] = await menu.upsertByName([changed]);
        const { productId: _id, optionGroups, ...rest } = updated!;
        const { optionGroups: _groups, ...changedFields } = changed;
        expect(rest).to.deep.equal({ ...changedFields, available: false });
        expect(optionGroups[0]!.options.map((o) => o.available)).to.deep.equal(noLarge.options.map((o) => o.available));
        expect(await menu.findByIds([created!.productId])).to.deep.equal([updated]);
      });

      it('keeps its revision when an upsert differs from the stored products only in availability', async () => {
        const menu = await factory();
        const draft = aProductDraft({ available: true });
        const [created] = await menu.upsertByName([draft]);
        await menu.setAvailability(created!.productId, false);
        const before = await menu.revision();
        await menu.upsertByName([{ ...draft }]);
        expect(await menu.revision()).to.equal(before);
      });
    });

    it('saves nothing when a batch names the same product twice', async () => {
      const menu = await factory();
      const name = `Twice ${uniqueSuffix()}`;
      const other = aProductDraft();
      const error = await rejectionOf(menu.upsertByName([other, aProductDraft({ name }), aProductDraft({ name: name.toLowerCase() })]));
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'validation_failed' });
      expect((error as DomainError).details?.map((issue) => issue.path)).to.deep.equal(['2.name']);
      const names = (await menu.list()).map((p) => p.name);
      expect(names).to.not.include(other.name);
      expect(names).to.not.include(name);
    });

    it('finds products by id and leaves unknown ids out', async () => {
      const menu = await factory();
      const [a, b] = await menu.upsertByName([aProductDraft(), aProductDraft()]);
      const found = await menu.findByIds([b!.productId, 'prd_unknown', a!.productId]);
      expect(found.map((p) => p.productId)).to.have.members([a!.productId, b!.productId]);
      expect(found.find((p) => p.productId === a!.productId)).to.deep.equal(a);
      expect(await menu.findByIds([])).to.deep.equal([]);
    });

    it('changes its revision on every write and keeps it while nothing is written', async () => {
      const menu = await factory();
      const before = await menu.revision();
      expect(before).to.be.a('string');
      expect(await menu.revision()).to.equal(before);
      const [product] = await menu.upsertByName([aProductDraft()]);
      const afterInsert = await menu.revision();
      expect(afterInsert).to.not.equal(before);
      await menu.upsertByName([{ ...aProductDraft(), name: product!.name, price: product!.price + 1 }]);
      const afterUpdate = await menu.revision();
      expect(afterUpdate).to.not.equal(afterInsert);
      expect(afterUpdate).to.not.equal(before);
    });

    it('marks a product unavailable and available again, and list and findByIds show it at once', async () => {
      const menu = await factory();
      const [product, other] = await menu.upsertByName([aProductDraft(), aProductDraft()]);
      const off = await menu.setAvailability(product!.productId, false);
      expect(off).to.deep.equal({ ...product, available: false });
      expect(only(await menu.list(), [product!, other!])).to.deep.equal([off!, other!].sort(compareProducts));
      expect(await menu.findByIds([product!.productId])).to.deep.equal([off]);
      const on = await menu.setAvailability(product!.productId, true);
      expect(on).to.deep.equal(product);
      expect(await menu.findByIds([product!.productId, other!.productId])).to.have.deep.members([product, other]);
    });

    it('changes its revision when availability changes, and keeps it when set to what it already is', async () => {
      const menu = await factory();
      const [product] = await menu.upsertByName([aProductDraft({ available: true })]);
      const before = await menu.revision();
      // Nothing changed: a client's cached menu (its ETag) is still right.
      expect(await menu.setAvailability(product!.productId, true)).to.deep.equal(product);
      expect(await menu.revision()).to.equal(before);
      await menu.setAvailability(product!.productId, false);
      const paused = await menu.revision();
      expect(paused).to.not.equal(before);
      await menu.setAvailability(product!.productId, true);
      expect(await menu.revision()).to.not.equal(paused);
    });

    it('answers null for the availability of an unknown product and changes nothing', async () => {
      const menu = await factory();
      await menu.upsertByName([aProductDraft()]);
      const before = await menu.revision();
      const listed = await menu.list();
      expect(await menu.setAvailability('prd_unknown', false)).to.equal(null);
      expect(await menu.revision()).to.equal(before);
      expect(await menu.list()).to.deep.equal(listed);
    });

    it('does not let a caller change the stored menu through a returned product', async () => {
      const menu = await factory();
      const [saved] = await menu.upsertByName([aProductDraft({ tags: ['original'] })]);
      try {
        (saved!.tags as string[]).push('tampered');
        (saved as { price: number }).price = 1;
      } catch {
        // A frozen product refuses the change, which is just as good.
      }
      const [found] = await menu.findByIds([saved!.productId]);
      expect(found!.tags).to.deep.equal(['original']);
      expect(found!.price).to.equal(1250);
    });
  });
}
