import { before, describe, it } from 'mocha';
import { expect } from 'chai';
import type { Product, ProductDraft } from '../src/model/product.js';
import { MenuSearchIndex } from '../src/search/menu-search-index.js';

/**
 * The examples of DECISIONS ("Search tolerates typos") on the demo menu the service ships. The menu
 * is the memory adapters' data: read here from their build (the specifier is a variable, so that
 * the domain's compilation does not depend on that package), so that the test follows the menu.
 */
const DEMO_MENU = '../../../adapters-memory/dist/src/demo/demo-menu.js';

describe('MenuSearchIndex on the demo menu, typos (DECISIONS examples)', () => {
  let index: MenuSearchIndex;
  let menu: Product[];
  const names = (q: string): string[] => index.search(q, { page: 1, limit: 100 }).items.map((p) => p.name);

  before(async () => {
    const { demoMenu } = (await import(DEMO_MENU)) as { demoMenu: { products: readonly ProductDraft[] } };
    // Search reads no option groups: the drafts' are left out rather than given ids.
    menu = demoMenu.products.map((draft, i) => ({ ...draft, productId: `prd_${i}`, optionGroups: [] }));
    index = MenuSearchIndex.build(menu);
  });

  const withWord = (word: RegExp): string[] => menu.filter((p) => word.test(p.name)).map((p) => p.name);

  it('has pizzas, chicken dishes and a tiramisù to find', () => {
    expect(withWord(/pizza/i)).to.have.length.above(1);
    expect(withWord(/chicken/i)).to.have.length.above(1);
    expect(withWord(/tiramis/i)).to.deep.equal(['Tiramisù']);
  });

  it('finds the pizzas for "piza", the pizzas by name first', () => {
    const found = names('piza');
    expect(found).to.include.members(withWord(/pizza/i));
    expect(found.slice(0, withWord(/pizza/i).length)).to.have.members(withWord(/pizza/i));
    expect(found, 'answers from "pizza"').to.deep.equal(names('pizza'));
  });

  it('finds the chicken dishes for "chiken", and the same for "chicken"', () => {
    expect(names('chiken')).to.have.members(withWord(/chicken/i));
    expect(names('chiken')).to.deep.equal(names('chicken'));
  });

  it('still finds Tiramisù for "tiramisu", and for "tiramsu" and "TIRAMISÚ"', () => {
    expect(names('tiramisu')).to.deep.equal(['Tiramisù']);
    expect(names('tiramsu')).to.deep.equal(['Tiramisù']);
    expect(names('TIRAMISÚ')).to.deep.equal(['Tiramisù']);
  });
});
