import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Product } from '../src/menu/product.js';
import { MenuSearchIndex } from '../src/search/menu-search-index.js';
import { tokenize } from '../src/search/normalize.js';
import { osa, prefixDistance, referenceSearch, searchProduct } from './search-reference.js';

// Products here default to category 'Zz' rather than the shared builder's 'Mains'.
const product = (name: string, fields: Partial<Product> = {}): Product => searchProduct(name, { category: 'Zz', ...fields });
const namesOf = (index: MenuSearchIndex, q: string, limit = 20): string[] => index.search(q, { page: 1, limit }).items.map((p) => p.name);

describe('MenuSearchIndex, typos: which words match', () => {
  /**
   * A query against a menu of one dish named `word`: found or not. The edits the row claims are
   * checked against a word-by-word distance, so that the table says what it tests. `prefix`: the
   * edits to the nearest start of the word (the query is its own last word).
   */
  const table: [query: string, word: string, edits: number | 'prefix', found: boolean, why: string][] = [
    ['pie', 'pye', 1, false, '3 letters: exact only'],
    ['tea', 'teas', 1, true, '3 letters: still a prefix of a longer word'],
    ['sop', 'soup', 1, false, '3 letters: no insertion'],
    ['piza', 'pizza', 1, true, '4 letters, one insertion'],
    ['soupp', 'soup', 1, true, '5 letters, one deletion'],
    ['soap', 'soup', 1, true, '4 letters, one substitution'],
    ['suop', 'soup', 1, true, '4 letters, two neighbours swapped'],
    ['chiken', 'chicken', 1, true, '6 letters, one insertion'],
    ['tiramsu', 'tiramisu', 1, true, '7 letters, one insertion'],
    ['pzzia', 'pizza', 2, false, '5 letters, two edits'],
    ['chikn', 'chicken', 2, false, '5 letters, two edits'],
    ['mozarela', 'mozzarella', 2, true, '8 letters, two insertions'],
    ['margarita', 'margherita', 2, true, '9 letters, an insertion and a substitution'],
    ['tirmasiu', 'tiramisu', 2, true, '8 letters, two swaps'],
    ['mozarla', 'mozzarella', 3, false, '7 letters, three edits'],
    ['margaritta', 'margherita', 3, false, '10 letters, three edits'],
    ['chik', 'chicken', 'prefix', true, 'last word: a prefix one edit away ("chic")'],
    ['chikc', 'chicken', 'prefix', true, 'last word: "chick" with a swap'],
    ['margheritx', 'margheritas', 'prefix', true, 'last word: "margherit" and a letter'],
    ['1235', '1234', 1, false, 'a number is exact'],
    ['pizza2', 'pizza', 1, false, 'a word with a digit is exact'],
  ];

  for (const [query, word, edits, found, why] of table) {
    it(`${found ? 'finds' : 'does not find'} "${word}" for "${query}" (${why})`, () => {
      if (edits === 'prefix') expect(prefixDistance(word, query), 'edits to a start of the word').to.equal(1);
      else expect(osa(word, query), 'edits').to.equal(edits);
      const index = MenuSearchIndex.build([product(word)]);
      expect(namesOf(index, query)).to.deep.equal(found ? [word] : []);
    });
  }

  it('lets a typo reach a prefix of the last word only', () => {
    const index = MenuSearchIndex.build([product('Chicken soup')]);
    expect(namesOf(index, 'soup chik')).to.deep.equal(['Chicken soup']);
    expect(namesOf(index, 'chik soup')).to.deep.equal([]);
    expect(namesOf(index, 'chiken soup')).to.deep.equal(['Chicken soup']);
  });

  it('requires every word to match, each exactly, as a prefix or by a typo', () => {
    const index = MenuSearchIndex.build([product('Spicy chicken curry'), product('Mild chicken curry')]);
    expect(namesOf(index, 'spicey chiken cur')).to.deep.equal(['Spicy chicken curry']);
    expect(namesOf(index, 'spicey chiken rice')).to.deep.equal([]);
  });

  it('folds accents before counting letters and edits', () => {
    const index = MenuSearchIndex.build([product('Tiramisù'), product('Thym')]);
    expect(namesOf(index, 'tiramisu')).to.deep.equal(['Tiramisù']);
    expect(namesOf(index, 'TIRAMSÙ')).to.deep.equal(['Tiramisù']);
    // "thé" is three letters (however its accent is typed): no typo reaches "thym".
    expect(namesOf(index, 'the\u0301 x')).to.deep.equal([]);
  });
});

describe('MenuSearchIndex, typos: ranking', () => {
  it('ranks exact and prefix hits before typo hits, by field and name within each', () => {
    const index = MenuSearchIndex.build([
      product('Flatbread', { description: 'Like a piza' }),
      product('Piza bread'),
      product('Pizzaiolo special'),
      product('Margherita', { description: 'A pizza' }),
      product('Pizza'),
    ]);
    // Exact in the name (16), prefix in the name (8), exact in the description (2), as without typos:
    // in a field an exact word beats a prefix, and the name beats the other fields. Then the typos,
    // in the name, then in the description: a typo never outranks an exact word or a prefix.
    expect(namesOf(index, 'pizza')).to.deep.equal(['Pizza', 'Pizzaiolo special', 'Margherita', 'Piza bread', 'Flatbread']);
  });

  it('ranks fewer edits first, then the fields, then the name', () => {
    const index = MenuSearchIndex.build([
      product('Margherita'),
      product('Bianca', { tags: ['margarite'] }),
      product('Alla margherita', { tags: ['classic'] }),
    ]);
    // "margarite" is one edit away, "margherita" two: the tag outranks the names.
    expect(namesOf(index, 'margarita')).to.deep.equal(['Bianca', 'Alla margherita', 'Margherita']);
  });

  it('weighs a typo of the whole word fully and a typo of a prefix half, as a prefix', () => {
    // "chikc" is a swap away from "chick" (the whole word) and from the start of "chicken".
    const index = MenuSearchIndex.build([product('Chicken'), product('Zz chick')]);
    expect(namesOf(index, 'chikc')).to.deep.equal(['Zz chick', 'Chicken']);
  });

  it('breaks ties between typo hits by name', () => {
    const index = MenuSearchIndex.build(['Dish c', 'Dish a', 'Dish b'].map((name) => product(name, { tags: ['chiken'] })));
    expect(namesOf(index, 'chicken')).to.deep.equal(['Dish a', 'Dish b', 'Dish c']);
  });

  it('adds up the edits of all the words', () => {
    const index = MenuSearchIndex.build([product('Spicey chicken'), product('Spicy chicken'), product('Spicy chiken wrap')]);
    expect(namesOf(index, 'spicy chiken')).to.deep.equal(['Spicy chiken wrap', 'Spicy chicken', 'Spicey chicken']);
  });

  it('counts each word once per product, by its best match', () => {
    // In "Chicken", "chiken" is exact in the description and a typo away in the name: the exact
    // match counts (it ranks first), not the heavier one (it would rank after "Aaa chicken").
    const index = MenuSearchIndex.build([product('Chicken wings'), product('Chicken', { description: 'chiken' }), product('Aaa chicken')]);
    expect(namesOf(index, 'chiken')).to.deep.equal(['Chicken', 'Aaa chicken', 'Chicken wings']);
    expect(index.search('chiken', { page: 1, limit: 20 }).total).to.equal(3);
  });
});

describe('MenuSearchIndex, typos: answers without typos are unchanged', () => {
  const menu = [
    product('Pizza Margherita', { category: 'Pizza', tags: ['vegetarian'], description: 'Tomato, mozzarella and basil' }),
    product('Pizza Marinara', { category: 'Pizza', tags: ['vegan'], description: 'Tomato, garlic and oregano' }),
    product('Tomato soup', { category: 'Soups', tags: ['vegan'], description: 'With basil' }),
    product('Tomatoes on toast', { category: 'Starters', tags: ['vegan'], description: 'Roasted tomatoes' }),
    product('Basil pesto pasta', { category: 'Pasta', tags: ['vegetarian'], description: 'Pine nuts and basil' }),
    product('Pasta al pomodoro', { category: 'Pasta', tags: ['vegan'], description: 'Tomato sauce' }),
    product('Vegetable curry', { category: 'Mains', tags: ['vegan', 'spicy'], description: 'Rice and naan' }),
    product('Spiced lentil soup', { category: 'Soups', tags: ['vegan', 'spice'], description: 'Red lentils' }),
  ];
  const index = MenuSearchIndex.build(menu);
  const vocabulary = [...new Set(menu.flatMap((p) => tokenize(`${p.name} ${p.category} ${p.tags.join(' ')} ${p.description}`)))];
  const queries = [...vocabulary, ...vocabulary.map((w) => w.slice(0, 3)), 'tomato basil', 'pizza tom', 'vegan sou', 'pasta toma'];

  it('lists the hits of the rules without typos first, in the same order, paged the same way', () => {
    let grown = 0;
    for (const query of queries) {
      const exact = referenceSearch(menu, query, 1, 100, { typos: false });
      const all = index.search(query, { page: 1, limit: 100 });
      expect(all.items.slice(0, exact.total).map((p) => p.productId), query).to.deep.equal(exact.ids);
      expect(all.total, query).to.equal(referenceSearch(menu, query, 1, 100).total);
      if (all.total > exact.total) grown += 1;
      for (const limit of [1, 3]) {
        for (let page = 1; page <= Math.ceil(exact.total / limit); page++) {
          const got = index.search(query, { page, limit });
          const before = referenceSearch(menu, query, page, limit, { typos: false }).ids;
          // The page starts with the same hits (a last page of them goes on with typo hits).
          expect(got.items.slice(0, before.length).map((p) => p.productId), `${query} page ${page} limit ${limit}`).to.deep.equal(before);
          expect(got, `${query} page ${page} limit ${limit}`).to.include({ total: all.total, nextPage: page * limit < all.total ? page + 1 : null });
        }
      }
    }
    // Some exact words do reach others by a typo ("spicy" and "spice"; "tomato" and "tomatoes" as prefixes):
    // their totals grow by those hits, ranked after.
    expect(grown).to.be.above(0);
  });

  it('gives an exact query on a menu with no word a typo away the same total as before', () => {
    const many = MenuSearchIndex.build(Array.from({ length: 25 }, (_, i) => product(`Dish ${String(24 - i).padStart(2, '0')}`)));
    expect(many.search('dish', { page: 1, limit: 10 })).to.include({ total: 25, nextPage: 2, perPage: 10 });
    expect(many.search('dish', { page: 3, limit: 10 })).to.include({ total: 25, nextPage: null });
  });
});
