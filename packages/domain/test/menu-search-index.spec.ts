import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Product } from '../src/menu/product.js';
import { MenuSearchIndex } from '../src/search/menu-search-index.js';
import { normalizeText, tokenize } from '../src/search/normalize.js';
import { searchProduct as product, referenceSearch } from './search-reference.js';
import { seededRandom } from './seeded-random.js';

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
    expect(normalizeText('Bœuf bourguignon, Smørrebrød, Œufs')).to.equal('boeuf bourguignon, smorrebrod, oeufs');
    expect(tokenize('Jalapeño poppers, 6-pack!')).to.deep.equal(['jalapeno', 'poppers', '6', 'pack']);
    expect(tokenize('  ')).to.deep.equal([]);
  });
});

describe('tokenize, ASCII fast path', () => {
  it('splits ASCII text exactly as the general rule (NFD, no marks, lower case, letters and digits) does', () => {
    const general = (text: string): string[] => normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
    const samples = ['Pizza Margherita', '  6-pack, 12oz!! ', 'A_B.c/d\\e', 'x', '', '---', 'MiXeD 42abc DEF9', '\t\ttab\nnew line'];
    for (let c = 0; c < 128; c++) samples.push(`a${String.fromCharCode(c)}b`, String.fromCharCode(c));
    for (const text of samples) expect(tokenize(text), JSON.stringify(text)).to.deep.equal(general(text));
    expect(tokenize('Crème BRÛLÉE, 2 × 🍮')).to.deep.equal(general('Crème BRÛLÉE, 2 × 🍮'));
  });
});

describe('MenuSearchIndex against a brute-force reference', function () {
  // The reference works every product out word by word: seconds, not milliseconds.
  this.timeout(20_000);

  // Small vocabulary, so that words repeat across thousands of products: long lists (read by
  // weights per product), short ones (searched), prefixes of several words, ties and cached results;
  // near neighbours ("chicken", "chickpea", "chili"; "salad", "salmon"), so that typos land on words.
  const WORDS = ['chicken', 'chickpea', 'chili', 'spicy', 'spinach', 'spring', 'soup', 'salad', 'salmon', 'crème', 'creme',
    'brûlée', 'bruschetta', 'pizza', 'pie', 'tomato', 'tom', 'to', 'vegan', 'vanilla', 'café', 'cafe', 'c', 'zucchini',
    'spice', 'chilli', 'pizzas', 'tomatoes'];
  const CATEGORIES = ['Starters', 'Mains', 'Pizza', 'Desserts', 'Soups'];

  function generate(count: number, seed: number): Product[] {
    const random = seededRandom(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
    // Some names repeat on purpose (ties by name, then by position).
    return Array.from({ length: count }, (_, i) =>
      product(random() < 0.1 ? 'Same name' : `${words(2)} ${i % 7}`, {
        category: pick(CATEGORIES),
        tags: Array.from({ length: Math.floor(random() * 3) }, () => pick(WORDS)),
        description: words(Math.floor(random() * 8)),
      }),
    );
  }

  for (const [count, seed] of [[300, 1], [4_000, 2]] as const) {
    it(`finds and ranks exactly what the rules say, typos included (${count} products, random queries, asked twice)`, () => {
      const products = generate(count, seed);
      const index = MenuSearchIndex.build(products);
      const random = seededRandom(seed + 100);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const prefix = (word: string): string => word.slice(0, 1 + Math.floor(random() * word.length));
      // Half the words get a typo or two: a letter put in, taken out, changed, or two swapped.
      const edit = (word: string): string => {
        const at = Math.floor(random() * word.length);
        const letter = pick([...'aceiklnoprstuz']);
        const kind = Math.floor(random() * 4);
        if (kind === 0) return word.slice(0, at) + letter + word.slice(at);
        if (kind === 1) return word.slice(0, at) + word.slice(at + 1);
        if (kind === 2) return word.slice(0, at) + letter + word.slice(at + 1);
        return at + 1 < word.length ? word.slice(0, at) + word[at + 1]! + word[at]! + word.slice(at + 2) : word;
      };
      const misspell = (word: string): string => (random() < 0.5 ? word : random() < 0.7 ? edit(word) : edit(edit(word)));
      let withTypos = 0;
      let mixed = 0;
      for (let q = 0; q < 200; q++) {
        const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => misspell(pick([...WORDS, ...CATEGORIES])));
        words.push(prefix(words.pop()!));
        const query = words.join(' ');
        const [page, limit] = [1 + Math.floor(random() * 3), pick([1, 7, 20, 100])];
        const { typos, ...expected } = referenceSearch(products, query, page, limit);
        if (typos > 0) withTypos += 1;
        if (typos > 0 && typos < expected.total) mixed += 1;
        for (let again = 0; again < 2; again++) {
          const actual = index.search(query, { page, limit });
          expect({ total: actual.total, ids: actual.items.map((p) => p.productId) }, `${query} page ${page} limit ${limit}`).to.deep.equal(expected);
        }
      }
      // The queries did exercise the typo rules: typo hits alone, and typo hits ranked below others.
      expect(withTypos, 'queries with typo hits').to.be.above(60);
      expect(mixed, 'queries with typo hits and others').to.be.above(15);
    });
  }
});
