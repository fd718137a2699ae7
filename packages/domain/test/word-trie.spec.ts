import { describe, it } from 'mocha';
import { expect } from 'chai';
import { WordTrie } from '../src/search/word-trie.js';

/** Every word the trie spells, by walking it: [word, its position in the list]. */
function spell(trie: WordTrie): [string, number][] {
  const found: [string, number][] = [];
  const visit = (x: number, path: string): void => {
    if (trie.isWord[x] === 1) found.push([path, trie.firstWord[x]!]);
    for (let c = x + 1; c < trie.end[x]!; c = trie.end[c]!) visit(c, path + String.fromCharCode(trie.letter[c]!));
  };
  visit(0, '');
  return found;
}

describe('WordTrie', () => {
  it('lays out one node per distinct prefix, in preorder, with a sentinel', () => {
    const trie = WordTrie.build(['pie', 'pies', 'pizza']);
    // Root, p, i, e, s, z, z, a, and the sentinel.
    expect(trie.nodes).to.equal(9);
    expect(String.fromCharCode(...trie.letter.slice(1, 8))).to.equal('pieszza');
    expect(spell(trie)).to.deep.equal([['pie', 0], ['pies', 1], ['pizza', 2]]);
  });

  it('gives each node the range of the words below it', () => {
    const words = ['cafe', 'cake', 'cakes', 'pie', 'pizza'];
    const trie = WordTrie.build(words);
    for (let x = 1; x < trie.nodes - 1; x++) {
      const below = words.slice(trie.firstWord[x]!, trie.firstWord[trie.end[x]!]!);
      const prefix = below[0]!.slice(0, depthOf(trie, x));
      expect(below, `node ${x}`).to.deep.equal(words.filter((w) => w.startsWith(prefix)));
    }
  });

  it('spells back any sorted list of distinct words, and an empty one', () => {
    const words = [...new Set(['a', 'ab', 'abc', 'b', 'ba', 'crème', 'creme', 'x'.repeat(40), 'é'])].sort();
    expect(spell(WordTrie.build(words))).to.deep.equal(words.map((w, i) => [w, i]));
    const empty = WordTrie.build([]);
    expect([empty.size, empty.nodes, spell(empty)]).to.deep.equal([0, 2, []]);
  });
});

/** How deep node x is: itself and the nodes above it, the root left out. */
function depthOf(trie: WordTrie, x: number): number {
  let depth = 1;
  for (let a = 1; a < x; a++) if (trie.end[a]! > x) depth += 1;
  return depth;
}
