/**
 * The part of the index's vocabulary that typos can reach: its words without a digit (see
 * `typo-rules.ts`), as a trie for the typo walk, each word with its position among all the index's
 * tokens. Built with the index, from its sorted tokens. Why this over a deletion-neighbourhood
 * (SymSpell) or n-gram index: docs/performance.md, "Typo-tolerant search".
 */
import { walkTypos } from './levenshtein-walk.js';
import { lettersOnly } from './typo-rules.js';
import { WordTrie } from './word-trie.js';

/** The index's tokens that a query word reaches by a typo, with the edits each took. */
export interface TypoMatches {
  readonly tokens: readonly number[];
  readonly edits: readonly number[];
  /** The token itself is that close (full weight), not only one of its prefixes (half weight). */
  readonly whole: readonly boolean[];
}

export class TypoVocabulary {
  private constructor(
    private readonly trie: WordTrie,
    /** The trie's word i is the index's token `tokenOf[i]`. */
    private readonly tokenOf: Int32Array,
  ) {}

  /** From the index's tokens, sorted. */
  static build(sortedTokens: readonly string[]): TypoVocabulary {
    const words: string[] = [];
    const positions: number[] = [];
    for (let t = 0; t < sortedTokens.length; t++) {
      const token = sortedTokens[t]!;
      if (lettersOnly(token)) {
        words.push(token);
        positions.push(t);
      }
    }
    return new TypoVocabulary(WordTrie.build(words), Int32Array.from(positions));
  }

  /** Words. */
  get size(): number {
    return this.trie.size;
  }

  /** Nodes of its trie. */
  get nodes(): number {
    return this.trie.nodes;
  }

  /**
   * The tokens within `maxEdits` of `word` (not `word` itself); with `prefix`, also those starting
   * with a word within `maxEdits` (not those starting with `word`: the prefix match has them).
   */
  match(word: string, maxEdits: number, prefix: boolean): TypoMatches {
    const tokens: number[] = [];
    const edits: number[] = [];
    const whole: boolean[] = [];
    walkTypos(this.trie, word, maxEdits, prefix, (w, e, isWhole) => {
      tokens.push(this.tokenOf[w]!);
      edits.push(e);
      whole.push(isWhole);
    });
    return { tokens, edits, whole };
  }
}
