/**
 * An in-process inverted index over the menu, built once per menu revision (it is read-mostly).
 * Every query word must match (accent- and case-insensitively; the last as a prefix; words of 4
 * letters or more within the typos of `typo-rules.ts`); ranking is fewest edits, then field weight,
 * then name. The flat layout and the query caches exist so that cost follows the rarest word, not
 * the menu (docs/decisions.md, "Search tolerates typos"; docs/performance.md).
 */
import type { Page, PageRequest } from '../shared/page.js';
import { pageOffset, toPage } from '../shared/page.js';
import type { Product } from '../menu/product.js';
import { ByteBudgetCache } from './byte-budget-cache.js';
import { tokenize } from './normalize.js';
import { buildPostings, rankByName } from './postings.js';
import { prefixUnion } from './prefix-union.js';
import { gallop, lowerBound } from './sorted-search.js';
import type { Postings, TermList } from './term-list.js';
import { EMPTY_LIST, worthTable } from './term-list.js';
import { TopKeys } from './top-keys.js';
import { typoBudget } from './typo-rules.js';
import { typoUnion } from './typo-union.js';
import { TypoVocabulary } from './typo-vocabulary.js';

/** The outcome of a query: the best matches, best first, up to the number asked for. */
interface RankedHits {
  readonly ranked: Int32Array;
  readonly total: number;
  /** Postings walked to find them: what asking again would cost. */
  readonly walked: number;
}

/** Queries that walked fewer postings than this are cheaper to run again than to remember. */
const RESULT_CACHE_MIN_WALK = 1_000;

/**
 * Memory for the lists kept between queries: prefix and typo unions (5 bytes a posting) and
 * weights by product of long lists (1 byte a product), and results.
 */
const CACHE_BYTES = 32 * 2 ** 20;
/** A list this long relative to the menu is looked up in a weights-by-product array, not searched. */
const DENSE_FRACTION = 1 / 32;
/** Cached for a word that no typo reaches: its own list is all there is. */
const NO_TYPOS = Symbol('no typos');

export class MenuSearchIndex {
  /** Token → its position in `sortedTokens`. */
  private readonly tokenIndex: Map<string, number>;
  private readonly sortedTokens: readonly string[];
  /** The postings of `sortedTokens[t]` are `[offsets[t], offsets[t + 1])` of `docs` and `weights`. */
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly weights: Uint8Array;
  private readonly typos: TypoVocabulary;
  /** Position of each product in (name, index) order, and the product at each position. */
  private readonly nameRank: Int32Array;
  private readonly byNameRank: Int32Array;
  /** Lists and results kept between queries, by key: `^prefix`, `~=word`, `~^word`, `#list`, `?k?terms`. */
  private readonly cache = new ByteBudgetCache(CACHE_BYTES);

  private constructor(private readonly products: readonly Product[]) {
    const built = buildPostings(products);
    this.tokenIndex = built.tokenIndex;
    this.sortedTokens = built.sortedTokens;
    this.offsets = built.offsets;
    this.docs = built.docs;
    this.weights = built.weights;
    this.typos = TypoVocabulary.build(built.sortedTokens);
    [this.nameRank, this.byNameRank] = rankByName(products);
  }

  static build(products: readonly Product[]): MenuSearchIndex {
    return new MenuSearchIndex(products);
  }

  get size(): number {
    return this.products.length;
  }

  search(query: string, page: PageRequest): Page<Product> {
    const terms = tokenize(query);
    if (terms.length === 0) return toPage([], 0, page);
    const offset = pageOffset(page);
    const k = offset + page.limit;
    // Asked again (search-as-you-type, popular words), a query that walked a long list is answered
    // from memory until the menu changes (a new menu is a new index).
    const key = `?${k}?${terms.join(' ')}`;
    let hits = this.cache.get(key) as RankedHits | undefined;
    if (hits === undefined) {
      hits = this.rank(terms, k);
      if (hits.walked >= RESULT_CACHE_MIN_WALK) this.cache.set(key, hits, 4 * hits.ranked.length + 2 * key.length + 64);
    }
    const items: Product[] = [];
    for (let i = offset; i < hits.ranked.length; i++) items.push(this.products[hits.ranked[i]!]!);
    return toPage(items, hits.total, page);
  }

  /** The `k` best matches of `terms` (product indexes, best first) and the number of matches. */
  private rank(terms: readonly string[], k: number): RankedHits {
    const lists: TermList[] = [];
    for (let i = 0; i < terms.length; i++) {
      const list = this.termList(terms[i]!, i === terms.length - 1);
      if (list.end === list.start) return { ranked: new Int32Array(0), total: 0, walked: 0 };
      lists.push(list);
    }
    // Walk the rarest term's list and look the others up: cost follows the smallest list.
    lists.sort((a, b) => a.end - a.start - (b.end - b.start));
    const [rarest, ...rest] = lists as [TermList, ...TermList[]];
    const n = this.products.length;
    // A long list is read through its weights by product (one load per product of the rarest
    // list); a short one is searched, galloping forward from where the previous product was found.
    const dense = rest.filter((list) => list.end - list.start >= n * DENSE_FRACTION);
    const sparse = rest.filter((list) => list.end - list.start < n * DENSE_FRACTION);
    const denseWeights = dense.map((list) => this.denseWeights(list));
    const cursors = Int32Array.from(sparse, (list) => list.start);

    // What each word's match is worth, by weight byte (see `worthTable`): summed, the edits rank first.
    const rarestWorth = worthTable(terms.length, rarest.shift);
    const denseWorth = dense.map((list) => worthTable(terms.length, list.shift));
    const sparseWorth = sparse.map((list) => worthTable(terms.length, list.shift));

    const best = new TopKeys(Math.min(k, rarest.end - rarest.start));
    const { docs, weights } = rarest;
    const nameRank = this.nameRank;
    // Offers at or below this are refused by `best`: no need to compute them.
    let floor = -Infinity;
    let total = 0;
    if (rest.length === 0) {
      // One word: every product of its list is a hit (a loop of its own runs faster).
      total = rarest.end - rarest.start;
      // (No floor test here: with scores mixed at random along the list it mispredicts more than it saves.)
      for (let i = rarest.start; i < rarest.end; i++) best.offer(rarestWorth[weights[i]!]! * n + (n - 1 - nameRank[docs[i]!]!));
    } else outer: for (let i = rarest.start; i < rarest.end; i++) {
      const doc = docs[i]!;
      let score = rarestWorth[weights[i]!]!;
      for (let j = 0; j < denseWeights.length; j++) {
        const weight = denseWeights[j]![doc]!;
        if (weight === 0) continue outer;
        score += denseWorth[j]![weight]!;
      }
      for (let j = 0; j < sparse.length; j++) {
        const other = sparse[j]!;
        const at = gallop(other.docs, other.end, doc, cursors[j]!);
        cursors[j] = at;
        if (at >= other.end || other.docs[at] !== doc) continue outer;
        score += sparseWorth[j]![other.weights[at]!]!;
      }
      total += 1;
      // Higher is better: the score first, then the earlier name (the rank also orders ties by index).
      // The best key this score can make is score·n + n - 1: below the heap's floor, skip the rank.
      if (score * n + n - 1 > floor) floor = best.offer(score * n + (n - 1 - nameRank[doc]!));
    }

    const keys = best.sortedDescending();
    const ranked = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) ranked[i] = this.byNameRank[n - 1 - (keys[i]! % n)]!;
    return { ranked, total, walked: rarest.end - rarest.start };
  }

  /** What one word matches: exactly (or as a prefix, if `last`), and by a typo if it is long enough. */
  private termList(term: string, last: boolean): TermList {
    const budget = typoBudget(term);
    if (budget === 0) return last ? this.prefixList(term) : this.exactList(term);
    const key = `~${last ? '^' : '='}${term}`;
    const cached = this.cache.get(key);
    if (cached !== undefined && cached !== NO_TYPOS) return cached as TermList;
    const base = last ? this.prefixList(term) : this.exactList(term);
    if (cached === NO_TYPOS) return base;
    const typos = this.typos.match(term, budget, last);
    if (typos.tokens.length === 0) {
      this.cache.set(key, NO_TYPOS, 2 * key.length + 64);
      return base;
    }
    const { list, byProduct } = typoUnion(base, typos, this.postings(), this.products.length, key);
    this.cache.set(key, list, list.end * 5 + 2 * key.length + 64);
    // The weights by product come for free here: keep them too if the list is long.
    if (list.end >= this.products.length * DENSE_FRACTION) this.cache.set(`#${key}`, byProduct, byProduct.length);
    return list;
  }

  private exactList(token: string): TermList {
    const t = this.tokenIndex.get(token);
    return t === undefined ? EMPTY_LIST : this.tokenList(t, 0);
  }

  private tokenList(t: number, shift: number): TermList {
    return { docs: this.docs, weights: this.weights, start: this.offsets[t]!, end: this.offsets[t + 1]!, shift, key: `=${this.sortedTokens[t]}` };
  }

  /** The list's (unshifted) weight of every product, 0 where it has none; kept between queries. */
  private denseWeights(list: TermList): Uint8Array {
    const key = `#${list.key}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached as Uint8Array;
    const byProduct = new Uint8Array(this.products.length);
    for (let i = list.start; i < list.end; i++) byProduct[list.docs[i]!] = list.weights[i]!;
    this.cache.set(key, byProduct, byProduct.length);
    return byProduct;
  }

  /**
   * The products having a token that starts with `prefix`, each with its best weight: the token
   * itself at full weight, a longer one at half.
   */
  private prefixList(prefix: string): TermList {
    const lo = lowerBound(this.sortedTokens, prefix);
    let hi = lo;
    while (hi < this.sortedTokens.length && this.sortedTokens[hi]!.startsWith(prefix)) hi++;
    if (hi === lo) return EMPTY_LIST;
    if (hi - lo === 1) return this.tokenList(lo, this.sortedTokens[lo] === prefix ? 0 : 1);
    const key = `^${prefix}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached as TermList;
    const { list, byProduct } = prefixUnion(this.sortedTokens, this.postings(), this.products.length, prefix, lo, hi);
    this.cache.set(key, list, list.end * 5);
    // The weights by product come for free here: keep them too if the list is long.
    if (list.end >= this.products.length * DENSE_FRACTION) this.cache.set(`#${key}`, byProduct, byProduct.length);
    return list;
  }

  private postings(): Postings {
    return { offsets: this.offsets, docs: this.docs, weights: this.weights };
  }
}
