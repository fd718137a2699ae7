import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Product } from '../src/model/product.js';
import { MenuSearchIndex } from '../src/search/menu-search-index.js';
import { normalizeText, tokenize } from '../src/search/normalize.js';

let counter = 0;
function product(name: string, fields: Partial<Product> = {}): Product {
  counter += 1;
  return { productId: `prd_${counter}`, name, description: '', category: 'Mains', price: 1000, currency: 'USD', tags: [], available: true, ...fields };
}

const menu = [
  product('Vanilla ice cream', { category: 'Desserts', tags: ['cold'], description: 'Three scoops' }),
  product('Crème brûlée', { category: 'Desserts', tags: ['french'], description: 'Vanilla custard under caramel' }),
  product('Pizza Margherita', { category: 'Pizza', tags: ['vegetarian'], description: 'Tomato and mozzarella' }),
  product('Tomato soup', { category: 'Starters', tags: ['vegan'], description: 'Creamy soup' }),
  product('Bruschetta', { category: 'Starters', tags: ['tomato'], description: 'Bread with tomatoes' }),
];
const index = MenuSearchIndex.build(menu);
const names = (q: string): string[] => index.search(q, { page: 1, limit: 20 }).items.map((p) => p.name);

describe('MenuSearchIndex', () => {
  it('matches case- and accent-insensitively', () => {
    expect(names('CREME')).to.deep.equal(['Crème brûlée']);
    expect(names('brulee')).to.deep.equal(['Crème brûlée']);
    expect(names('BRÛLÉE')).to.deep.equal(['Crème brûlée']);
  });

  it('requires every word of the query to match', () => {
    expect(names('tomato soup')).to.deep.equal(['Tomato soup']);
    expect(names('tomato pizza')).to.deep.equal(['Pizza Margherita']);
    expect(names('tomato dragonfruit')).to.deep.equal([]);
  });

  it('matches the last word as a prefix, and only the last word', () => {
    expect(names('tomato so')).to.deep.equal(['Tomato soup']);
    expect(names('to soup')).to.deep.equal([]);
    expect(names('marg')).to.deep.equal(['Pizza Margherita']);
  });

  it('searches name, category, tags and description', () => {
    expect(names('vegan')).to.deep.equal(['Tomato soup']);
    expect(names('starters')).to.deep.equal(['Bruschetta', 'Tomato soup']);
    expect(names('mozzarella')).to.deep.equal(['Pizza Margherita']);
  });

  it('ranks name hits first, then category and tags, then description', () => {
    expect(names('vanilla')).to.deep.equal(['Vanilla ice cream', 'Crème brûlée']);
    expect(names('tomato')).to.deep.equal(['Tomato soup', 'Bruschetta', 'Pizza Margherita']);
  });

  it('breaks ties by name', () => {
    expect(names('desserts')).to.deep.equal(['Crème brûlée', 'Vanilla ice cream']);
  });

  it('pages through the ranked hits with the total of all hits', () => {
    const many = MenuSearchIndex.build(Array.from({ length: 25 }, (_, i) => product(`Dish ${String(24 - i).padStart(2, '0')}`)));
    const page = (n: number) => many.search('dish', { page: n, limit: 10 });
    expect(page(1).items.map((p) => p.name)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `Dish ${String(i).padStart(2, '0')}`));
    expect(page(1)).to.include({ total: 25, nextPage: 2, perPage: 10 });
    expect(page(3).items.map((p) => p.name)).to.deep.equal(['Dish 20', 'Dish 21', 'Dish 22', 'Dish 23', 'Dish 24']);
    expect(page(3).nextPage).to.equal(null);
    expect(page(4)).to.deep.include({ items: [], total: 25, nextPage: null });
  });

  it('finds nothing for a query without words', () => {
    expect(index.search('  -- ', { page: 1, limit: 20 })).to.deep.include({ items: [], total: 0 });
  });

  it('knows how many products it indexes', () => {
    expect(index.size).to.equal(5);
  });
});

describe('normalizeText and tokenize', () => {
  it('lower-cases, strips accents and splits on anything but letters and digits', () => {
    expect(normalizeText('Crème Brûlée')).to.equal('creme brulee');
    expect(tokenize('Jalapeño poppers, 6-pack!')).to.deep.equal(['jalapeno', 'poppers', '6', 'pack']);
    expect(tokenize('  ')).to.deep.equal([]);
  });
});
