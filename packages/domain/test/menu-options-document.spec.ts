import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '../src/shared/errors.js';
import { menuDocumentOf, parseMenuDocument } from '../src/menu/menu-document.js';
import { assignOptionIds } from '../src/menu/option-ids.js';
import type { Product } from '../src/menu/product.js';
import { issuesOf } from './refusals.js';

const size = { name: 'Size', min: 1, max: 1, options: [{ name: 'Regular', price_delta: 0 }, { name: 'Large', price_delta: 400 }] };
const pizza = (groups: unknown[]) => ({ products: [{ name: 'Margherita', category: 'Pizza', price: 1290, option_groups: groups }] });
const G = 'products.0.option_groups';

describe('parseMenuDocument: option groups', () => {
  it('reads option groups, with price_delta 0 and available true by default', () => {
    const [draft] = parseMenuDocument(pizza([{ name: ' Size ', min: 1, max: 1, options: [{ name: 'Regular' }, { name: 'Large', price_delta: 400, available: false }] }]));
    expect(draft!.optionGroups).to.deep.equal([
      { name: 'Size', min: 1, max: 1, options: [{ name: 'Regular', priceDelta: 0, available: true }, { name: 'Large', priceDelta: 400, available: false }] },
    ]);
  });

  it('gives a product without option_groups none', () => {
    expect(parseMenuDocument({ products: [{ name: 'Soup', category: 'Starters', price: 450 }] })[0]!.optionGroups).to.deep.equal([]);
  });

  it('refuses a negative min, a max below 1, and a min above max', () => {
    expect(issuesOf(pizza([{ ...size, min: -1 }]))).to.deep.equal([`${G}.0.min`]);
    expect(issuesOf(pizza([{ ...size, min: 0, max: 0 }]))).to.deep.equal([`${G}.0.max`]);
    expect(issuesOf(pizza([{ ...size, min: 2, max: 1 }]))).to.deep.equal([`${G}.0.min`]);
    expect(issuesOf(pizza([{ ...size, min: 0.5 }]))).to.deep.equal([`${G}.0.min`]);
  });

  it('refuses a max above the number of options', () => {
    expect(issuesOf(pizza([{ ...size, max: 3 }]))).to.deep.equal([`${G}.0.max`]);
  });

  it('refuses a negative or fractional price_delta', () => {
    expect(issuesOf(pizza([{ ...size, options: [{ name: 'Regular', price_delta: -1 }, { name: 'Large', price_delta: 1.5 }] }]))).to.deep.equal([
      `${G}.0.options.0.price_delta`,
      `${G}.0.options.1.price_delta`,
    ]);
  });

  it('refuses blank names, and a group or an option named twice (whatever the case)', () => {
    expect(issuesOf(pizza([{ ...size, name: ' ' }]))).to.deep.equal([`${G}.0.name`]);
    expect(issuesOf(pizza([{ ...size, options: [{ name: '' }, { name: 'Large' }] }]))).to.deep.equal([`${G}.0.options.0.name`]);
    expect(issuesOf(pizza([size, { ...size, name: 'SIZE' }]))).to.deep.equal([`${G}.1.name`]);
    expect(issuesOf(pizza([{ ...size, options: [{ name: 'Large' }, { name: 'large' }] }]))).to.deep.equal([`${G}.0.options.1.name`]);
  });

  it('refuses more than 20 groups, more than 50 options in a group, and a group without options', () => {
    const groups = Array.from({ length: 21 }, (_, i) => ({ ...size, name: `Group ${i}` }));
    expect(issuesOf(pizza(groups))).to.deep.equal([G]);
    const options = Array.from({ length: 51 }, (_, i) => ({ name: `Option ${i}` }));
    expect(issuesOf(pizza([{ name: 'Many', min: 0, max: 1, options }]))).to.deep.equal([`${G}.0.options`]);
    expect(issuesOf(pizza([{ name: 'None', min: 0, max: 1, options: [] }]))).to.deep.equal([`${G}.0.options`]);
  });

  it('refuses unknown fields (ids are the store’s to assign) and values of the wrong type', () => {
    expect(issuesOf(pizza([{ ...size, group_id: 'grp_1' }]))).to.deep.equal([`${G}.0.group_id`]);
    expect(issuesOf(pizza([{ ...size, options: [{ name: 'Regular', option_id: 'opt_1' }, { name: 'Large', available: 'yes' }] }]))).to.deep.equal([
      `${G}.0.options.0.option_id`,
      `${G}.0.options.1.available`,
    ]);
    expect(issuesOf(pizza(['size']))).to.deep.equal([`${G}.0`]);
    expect(issuesOf({ products: [{ name: 'Margherita', category: 'Pizza', price: 1290, option_groups: {} }] })).to.deep.equal([G]);
  });
});

describe('menuDocumentOf', () => {
  it('writes the menu as a document that reads back to the same drafts, option groups included', async () => {
    const [draft] = parseMenuDocument(pizza([size, { name: 'Extra toppings', min: 0, max: 2, options: [{ name: 'Olives', price_delta: 150, available: false }, { name: 'Basil' }] }]));
    const product: Product = { ...draft!, productId: 'prd_1', optionGroups: await assignOptionIds(draft!.name, draft!.optionGroups) };
    const document = menuDocumentOf([product]);
    expect(document.products[0]!.option_groups![1]).to.deep.equal({
      name: 'Extra toppings', min: 0, max: 2, options: [{ name: 'Olives', price_delta: 150, available: false }, { name: 'Basil', price_delta: 0, available: true }],
    });
    expect(JSON.stringify(document)).to.not.include('grp_').and.not.include('opt_').and.not.include('prd_');
    expect(parseMenuDocument(JSON.parse(JSON.stringify(document)))).to.deep.equal([draft]);
  });
});

describe('assignOptionIds', () => {
  const groups = parseMenuDocument(pizza([size]))[0]!.optionGroups;

  it('derives grp_ and opt_ ids from the names: the same names, the same ids, whatever the case', async () => {
    const first = await assignOptionIds('Margherita', groups);
    expect(first[0]!.groupId).to.match(/^grp_[0-9a-z]{20}$/);
    expect(first[0]!.options.map((o) => o.optionId)).to.satisfy((ids: string[]) => ids.every((id) => /^opt_[0-9a-z]{20}$/.test(id)));
    expect(await assignOptionIds('MARGHERITA', groups)).to.deep.equal(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.options[0])).to.equal(true);
  });

  it('gives another product, group or option other ids', async () => {
    const [mine] = await assignOptionIds('Margherita', groups);
    const [theirs] = await assignOptionIds('Diavola', groups);
    const [renamed] = await assignOptionIds('Margherita', [{ ...groups[0]!, name: 'Crust' }]);
    const ids = [mine, theirs, renamed].flatMap((g) => [g!.groupId, ...g!.options.map((o) => o.optionId)]);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('refuses two groups, or two options of a group, with one name: they would share an id', async () => {
    for (const drafts of [[groups[0]!, { ...groups[0]!, name: 'size' }], [{ ...groups[0]!, options: [groups[0]!.options[0]!, groups[0]!.options[0]!] }]]) {
      const error = await assignOptionIds('Margherita', drafts).catch((e: unknown) => e);
      expect(isDomainError(error, 'validation_failed')).to.equal(true);
    }
  });
});
