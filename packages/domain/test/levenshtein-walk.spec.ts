import { describe, it } from 'mocha';
import { expect } from 'chai';
import fc from 'fast-check';
import { walkTypos } from '../src/search/levenshtein-walk.js';
import { WordTrie } from '../src/search/word-trie.js';
import { osa, prefixDistance } from './search-reference.js';
import { seededRandom } from './seeded-random.js';

type Found = Record<string, [edits: number, whole: boolean]>;

function walk(words: readonly string[], query: string, maxEdits: number, prefix: boolean): Found {
  const sorted = [...new Set(words)].sort();
  const found: Found = {};
  walkTypos(WordTrie.build(sorted), query, maxEdits, prefix, (w, edits, whole) => {
    const word = sorted[w]!;
    expect(found, `${word} visited twice`).not.to.have.property(word);
    found[word] = [edits, whole];
  });
  return found;
}

/** What the walk must find, word by word: every word's distance worked out in full. */
function bruteForce(words: readonly string[], query: string, maxEdits: number, prefix: boolean): Found {
  const found: Found = {};
  for (const word of new Set(words)) {
    if (word === query || (prefix && word.startsWith(query))) continue;
    const whole = osa(word, query);
    const start = prefix ? prefixDistance(word, query) : whole;
    if (whole <= maxEdits && whole <= start) found[word] = [whole, true];
    else if (start <= maxEdits) found[word] = [start, false];
  }
  return found;
}

describe('walkTypos', () => {
  const words = ['chicken', 'chickpea', 'chili', 'chilli', 'chips', 'pie', 'pizza', 'pizzas', 'pizzeria', 'spicy', 'tiramisu'];

  it('finds a word one insertion, deletion, substitution or swap away', () => {
    expect(walk(words, 'piza', 1, false)).to.deep.equal({ pizza: [1, true] });
    expect(walk(words, 'pizzza', 1, false)).to.deep.equal({ pizza: [1, true] });
    expect(walk(words, 'pizze', 1, false)).to.deep.equal({ pizza: [1, true] });
    expect(walk(words, 'ipzza', 1, false)).to.deep.equal({ pizza: [1, true] });
  });

  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(walk(words, 'chikcen', 1, false)).to.deep.equal({ chicken: [1, true] });
    expect(walk(words, 'tiramsiu', 1, false)).to.deep.equal({ tiramisu: [1, true] });
  });

  it('finds words two edits away only when two are allowed', () => {
    expect(walk(words, 'tirmasiu', 1, false)).to.deep.equal({});
    expect(walk(words, 'tirmasiu', 2, false)).to.deep.equal({ tiramisu: [2, true] });
    expect(walk(words, 'chikn', 1, false)).to.deep.equal({});
  });

  it('leaves out the query itself, and in prefix mode the words starting with it', () => {
    expect(walk(words, 'pizza', 1, false)).to.deep.equal({ pizzas: [1, true] });
    expect(walk(words, 'pizza', 1, true)).to.deep.equal({ pizzeria: [1, false] });
  });

  it('in prefix mode, finds the words starting with a word within reach, with the edits of that start', () => {
    expect(walk(words, 'chik', 1, true)).to.deep.equal({ chicken: [1, false], chickpea: [1, false], chili: [1, false], chilli: [1, false], chips: [1, false] });
    expect(walk(words, 'tiramsu', 1, true)).to.deep.equal({ tiramisu: [1, true] });
    // A whole-word hit is preferred to a prefix hit of as many edits; fewer edits win over both.
    expect(walk(['pizz', 'pizza'], 'pizx', 1, true)).to.deep.equal({ pizz: [1, true], pizza: [1, false] });
  });

  it('finds nothing without a budget or a vocabulary', () => {
    expect(walk(words, 'piza', 0, true)).to.deep.equal({});
    expect(walk([], 'piza', 2, true)).to.deep.equal({});
  });

  it('finds exactly what a word-by-word distance finds (random vocabularies over a small alphabet)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 9 });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), word, fc.integer({ min: 1, max: 2 }), fc.boolean(), (vocabulary, query, maxEdits, prefix) => {
        expect(walk(vocabulary, query, maxEdits, prefix)).to.deep.equal(bruteForce(vocabulary, query, maxEdits, prefix));
      }),
      { numRuns: 3_000, seed: 14 },
    );
  });
});

describe('walkTypos, cost', () => {
  // 20,000 distinct words of 4–10 random letters: a trie denser near its root than a language's,
  // so the worst case for two edits (every path of two or three letters is within reach).
  const random = seededRandom(7);
  const letter = (): string => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]!;
  const words = [...new Set(Array.from({ length: 20_000 }, () => Array.from({ length: 4 + Math.floor(random() * 7) }, letter).join('')))].sort();
  const trie = WordTrie.build(words);

  it('computes rows only along the paths within reach of the query, not for the whole vocabulary', () => {
    for (const [query, maxEdits, prefix, most] of [['kzmq', 1, true, 3_000], ['walrusqe', 2, false, 20_000], ['walrusqe', 2, true, 20_000]] as const) {
      const rows = walkTypos(trie, query, maxEdits, prefix, () => {});
      expect(rows, `${query}, ${maxEdits}, ${prefix}`).to.be.below(most);
    }
    expect(trie.nodes, 'rows of a full walk').to.be.above(90_000);
  });
});
