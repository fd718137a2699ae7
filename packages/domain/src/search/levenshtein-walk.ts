/**
 * The candidate step of typo-tolerant search: the words of a vocabulary within `maxEdits` edits of
 * a query word (optimal string alignment: a swap of neighbours is one edit), and in prefix mode the
 * words starting with one. No scan: the walk goes down the vocabulary's trie (`word-trie.ts`)
 * carrying the edit-distance table one row per letter, only the band near the diagonal, and leaves
 * a subtree once no cell is within budget (a row never gets better below), so cost follows the
 * paths within reach. Distances are in UTF-16 code units: a letter outside the BMP counts twice.
 */
import type { WordTrie } from './word-trie.js';

/**
 * Receives a word (by its position in the vocabulary) that a typo reaches, the edits it took, and
 * whether the word itself is that close (`whole`) or only one of its prefixes (prefix mode).
 */
export type TypoVisit = (word: number, edits: number, whole: boolean) => void;

/**
 * Calls `visit` for every word of `trie` within `maxEdits` of `query` but not equal to it; with
 * `prefix`, also for every word having a prefix within `maxEdits`, except the words starting with
 * `query` itself (the prefix match has them). Each word is visited once, with its fewest edits, a
 * whole-word hit preferred at equal edits. Returns the rows computed: what the walk cost.
 */
export function walkTypos(trie: WordTrie, query: string, maxEdits: number, prefix: boolean, visit: TypoVisit): number {
  if (maxEdits <= 0 || trie.size === 0) return 0;
  const walk = new Walk(trie, query, maxEdits, prefix, visit);
  walk.run();
  return walk.steps;
}

class Walk {
  private readonly m: number;
  private readonly q: Uint16Array;
  /**
   * Row r at `[r·(m + 1), (r + 1)·(m + 1))`: the edits between the path's first r letters and the
   * query's first j letters, capped at `over`. Below depth m + d every cell is over budget.
   */
  private readonly rows: Uint8Array;
  /** The path's letters, `path[r]` the r-th (from 1). */
  private readonly path: Uint16Array;
  /** "Out of budget": maxEdits + 1. */
  private readonly over: number;
  /** Rows computed. */
  steps = 0;

  constructor(
    private readonly trie: WordTrie,
    query: string,
    private readonly d: number,
    private readonly prefix: boolean,
    private readonly visit: TypoVisit,
  ) {
    const m = query.length;
    this.m = m;
    this.q = new Uint16Array(m);
    for (let j = 0; j < m; j++) this.q[j] = query.charCodeAt(j);
    this.over = d + 1;
    const depth = m + d + 1;
    this.rows = new Uint8Array((depth + 1) * (m + 1)).fill(this.over);
    this.path = new Uint16Array(depth + 1);
  }

  run(): void {
    for (let j = 0; j <= Math.min(this.m, this.d); j++) this.rows[j] = j;
    this.descend(0, 0, this.over);
  }

  /**
   * Node `x` at `depth`, whose row is computed; `inherited`: the fewest edits of a prefix of the
   * path to the whole query (prefix mode), or over budget.
   */
  private descend(x: number, depth: number, inherited: number): void {
    const { d } = this;
    const { letter, end, firstWord, isWord } = this.trie;
    // Edits of the path to the whole query.
    const whole = this.rows[depth * (this.m + 1) + this.m]!;
    const reach = this.prefix && whole < inherited ? whole : inherited;
    // The path starts with the query itself: those words are the prefix match, not typos.
    if (reach === 0) return;
    if (isWord[x] === 1) {
      if (whole <= d && whole <= reach) {
        if (whole > 0) this.visit(firstWord[x]!, whole, true);
      } else if (reach <= d) this.visit(firstWord[x]!, reach, false);
    }
    for (let c = x + 1; c < end[x]!; c = end[c]!) {
      if (this.step(depth + 1, letter[c]!)) this.descend(c, depth + 1, reach);
      else if (reach <= d) for (let w = firstWord[c]!; w < firstWord[end[c]!]!; w++) this.visit(w, reach, false);
    }
  }

  /** Computes row `r` for the path extended by `c`; whether any of its cells is within budget. */
  private step(r: number, c: number): boolean {
    const { q, m, d, over, path, rows } = this;
    const lo = r > d ? r - d : 0;
    const hi = r + d < m ? r + d : m;
    if (lo > hi) return false;
    this.steps += 1;
    path[r] = c;
    const width = m + 1;
    const cur = r * width;
    const prev = cur - width;
    const before = prev - width;
    const swapped = r >= 2 ? path[r - 1]! : -1;
    let best = over;
    let j = lo;
    // Column 0: r letters against none (only near the root, where r ≤ d).
    if (j === 0) {
      rows[cur] = r;
      best = r;
      j = 1;
    }
    // The cell to the left, for an insertion.
    let left = rows[cur + j - 1]!;
    for (; j <= hi; j++) {
      const qj = q[j - 1]!;
      let v = rows[prev + j - 1]! + (qj === c ? 0 : 1);
      const deletion = rows[prev + j]! + 1;
      if (deletion < v) v = deletion;
      if (left + 1 < v) v = left + 1;
      // Two neighbouring letters swapped: one edit from two rows up.
      if (j >= 2 && c === q[j - 2] && swapped === qj) {
        const swap = rows[before + j - 2]! + 1;
        if (swap < v) v = swap;
      }
      if (v > over) v = over;
      rows[cur + j] = v;
      left = v;
      if (v < best) best = v;
    }
    return best <= d;
  }
}
