/**
 * The examples of DECISIONS ("Search tolerates typos") on the demo menu the service ships, through
 * the search use case: the test follows the menu as it changes.
 */
import { before, describe, it } from 'mocha';
import { expect } from 'chai';
import type { Product } from '@storefront/domain';
import { demoMenu } from '../../src/index.js';
import { aWorld, type World } from './world.js';

describe('Search on the demo menu, typos (DECISIONS examples)', () => {
  let world: World;
  let menu: readonly Product[];
  const names = async (q: string): Promise<string[]> =>
    (await world.storefront.searchMenu.execute({ q, page: 1, limit: 100 })).items.map((p) => p.name);
  const withWord = (word: RegExp): string[] => menu.filter((p) => word.test(p.name)).map((p) => p.name);

  before(async () => {
    world = aWorld();
    menu = await world.storefront.importMenu.execute(demoMenu);
  });

  it('has pizzas, chicken dishes and a tiramisù to find', () => {
    expect(withWord(/pizza/i)).to.have.length.above(1);
    expect(withWord(/chicken/i)).to.have.length.above(1);
    expect(withWord(/tiramis/i)).to.deep.equal(['Tiramisù']);
  });

  it('finds the pizzas for "piza", the pizzas by name first', async () => {
    const found = await names('piza');
    expect(found).to.include.members(withWord(/pizza/i));
    expect(found.slice(0, withWord(/pizza/i).length)).to.have.members(withWord(/pizza/i));
    expect(found, 'answers from "pizza"').to.deep.equal(await names('pizza'));
  });

  it('finds the chicken dishes for "chiken", and the same for "chicken"', async () => {
    expect(await names('chiken')).to.have.members(withWord(/chicken/i));
    expect(await names('chiken')).to.deep.equal(await names('chicken'));
  });

  it('still finds Tiramisù for "tiramisu", and for "tiramsu" and "TIRAMISÚ"', async () => {
    expect(await names('tiramisu')).to.deep.equal(['Tiramisù']);
    expect(await names('tiramsu')).to.deep.equal(['Tiramisù']);
    expect(await names('TIRAMISÚ')).to.deep.equal(['Tiramisù']);
  });
});
