/**
 * A sorted list of words as a trie in three flat arrays, for the typo walk (levenshtein-walk.ts):
 * nodes in preorder, each with its letter, where its subtree ends and the first word below it, so a
 * subtree is also a range of words. No object per node; built in one pass over the sorted words.
 * Why flat arrays rather than the sorted strings read as a trie: docs/decisions.md (issue 33).
 */
export class WordTrie {
  private constructor(
    /** Node x's letter (a UTF-16 code unit); node 0 is the root (no letter). */
    readonly letter: Uint16Array,
    /** The node after x's subtree: x's first child is x + 1 if x + 1 < end[x], the next sibling of a child c is end[c]. */
    readonly end: Int32Array,
    /** The first word in x's subtree: its words are `[firstWord[x], firstWord[end[x]])` (a sentinel node closes the list). */
    readonly firstWord: Int32Array,
    /** 1 if the path to x is a word: then it is `firstWord[x]` (a word sorts before the longer ones it starts). */
    readonly isWord: Uint8Array,
    /** The number of words. */
    readonly size: number,
  ) {}

  /** From distinct words sorted as `<` sorts them (UTF-16 code units). */
  static build(sorted: readonly string[]): WordTrie {
    let capacity = 1024;
    let letter = new Uint16Array(capacity);
    let end = new Int32Array(capacity);
    let firstWord = new Int32Array(capacity);
    let isWord = new Uint8Array(capacity);
    let nodes = 1;
    // The nodes of the path to the previous word, by depth (the root at 0).
    const path: number[] = [0];
    let previous = '';
    for (let w = 0; w < sorted.length; w++) {
      const word = sorted[w]!;
      let shared = 0;
      const most = Math.min(word.length, previous.length);
      while (shared < most && word.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      // The previous word's nodes below the shared prefix are complete.
      while (path.length > shared + 1) end[path.pop()!] = nodes;
      for (let depth = shared; depth < word.length; depth++) {
        if (nodes === capacity) {
          capacity *= 2;
          letter = grow(letter, new Uint16Array(capacity));
          end = grow(end, new Int32Array(capacity));
          firstWord = grow(firstWord, new Int32Array(capacity));
          isWord = grow(isWord, new Uint8Array(capacity));
        }
        letter[nodes] = word.charCodeAt(depth);
        firstWord[nodes] = w;
        path.push(nodes);
        nodes += 1;
      }
      isWord[path[word.length]!] = 1;
      previous = word;
    }
    while (path.length > 0) end[path.pop()!] = nodes;
    // Then the sentinel: no letter, no subtree, the end of the word list.
    const size = nodes + 1;
    const trie = new WordTrie(
      fit(letter, new Uint16Array(size), nodes),
      fit(end, new Int32Array(size), nodes),
      fit(firstWord, new Int32Array(size), nodes),
      fit(isWord, new Uint8Array(size), nodes),
      sorted.length,
    );
    trie.end[nodes] = size;
    trie.firstWord[nodes] = sorted.length;
    return trie;
  }

  /** Nodes, the root and the sentinel included. */
  get nodes(): number {
    return this.letter.length;
  }
}

function grow<T extends Uint16Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function fit<T extends Uint16Array | Int32Array | Uint8Array>(from: T, to: T, length: number): T {
  to.set(from.subarray(0, length));
  return to;
}
