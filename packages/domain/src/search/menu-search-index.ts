/**
 * An in-process inverted index over the menu (the menu is read-mostly, so it is built once per
 * menu revision). Matching rules: every word of the query must match a word of the product's
 * name, category, tags or description, case- and accent-insensitively; the last word also matches
 * as a prefix (search-as-you-type). Ranking: name hits weigh most, then category and tags, then
 * description; exact words beat prefixes; ties by name.
 *
 * Layout, for menus of 100,000 dishes and more: the tokens are sorted, and the posting lists of all
 * of them lie one after the other in two flat typed arrays (product indexes, ascending within a
 * token, and the best field weight of each in half units, so that a prefix hit, worth half, stays
 * an integer). No object per token, so building is fast and the index small. A query walks its
 * shortest list and finds each product in the others by galloping search, so the cost follows the
 * rarest word, not the menu. Ranking compares no strings per query: every product has a
 * precomputed rank in name order, and (score, name rank) is packed into one number fed to a bounded
 * heap (top-k, not a full sort). A prefix matching several words (`c`, `sp`) needs the union of
 * their lists, and a long list is best read as an array of weights by product; both are kept
 * between queries, and so are the results of queries that had a long list to walk (least recently
 * used out, 32 MiB in all), since search-as-you-type asks for the same words and prefixes again and
 * again. All of it belongs to the index, so a new menu (a new index) starts afresh.
 */
import type { Page, PageRequest } from '../model/page.js';
import { pageOffset, toPage } from '../model/page.js';
import type { Product } from '../model/product.js';
import { tokenize } from './normalize.js';
import { buildPostings, rankByName } from './postings.js';
import { gallop, lowerBound } from './sorted-search.js';
import { TopKeys } from './top-keys.js';


/**
 * The postings `[start, end)` of `docs`/`weights` as one query term reads them: `shift` 1 halves
 * the weights (a prefix-only hit).
 */
interface TermList {
  readonly docs: Int32Array;
  readonly weights: Uint8Array;
  readonly start: number;
  readonly end: number;
  readonly shift: number;
  /** Where the list's weights by product are cached (see `denseWeights`). */
  readonly key: string;
}

const EMPTY: TermList = { docs: new Int32Array(0), weights: new Uint8Array(0), start: 0, end: 0, shift: 0, key: '' };

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
 * Memory for the lists kept between queries: prefix unions (5 bytes a posting) and weights by
 * product of long lists (1 byte a product). Least recently used first out.
 */
const CACHE_BYTES = 32 * 2 ** 20;
/** A list this long relative to the menu is looked up in a weights-by-product array, not searched. */
const DENSE_FRACTION = 1 / 32;

export class MenuSearchIndex {
  /** Token → its position in `sortedTokens`. */
  private readonly tokenIndex: Map<string, number>;
  private readonly sortedTokens: readonly string[];
  /** The postings of `sortedTokens[t]` are `[offsets[t], offsets[t + 1])` of `docs` and `weights`. */
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly weights: Uint8Array;
  /** Position of each product in (name, index) order, and the product at each position. */
  private readonly nameRank: Int32Array;
  private readonly byNameRank: Int32Array;
  /** Lists and results kept between queries, by key: `^prefix`, `#list`, `?k?terms`. */
  private readonly cache = new Map<string, { readonly value: unknown; readonly bytes: number }>();
  private cacheBytes = 0;

  private constructor(private readonly products: readonly Product[]) {
    const built = buildPostings(products);
    this.tokenIndex = built.tokenIndex;
    this.sortedTokens = built.sortedTokens;
    this.offsets = built.offsets;
    this.docs = built.docs;
    this.weights = built.weights;
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
    let hits = this.cached(key) as RankedHits | undefined;
    if (hits === undefined) {
      hits = this.rank(terms, k);
      if (hits.walked >= RESULT_CACHE_MIN_WALK) this.remember(key, hits, 4 * hits.ranked.length + 2 * key.length + 64);
    }
    const items: Product[] = [];
    for (let i = offset; i < hits.ranked.length; i++) items.push(this.products[hits.ranked[i]!]!);
    return toPage(items, hits.total, page);
  }

  /** The `k` best matches of `terms` (product indexes, best first) and the number of matches. */
  private rank(terms: readonly string[], k: number): RankedHits {
    const lists: TermList[] = [];
    for (let i = 0; i < terms.length; i++) {
      const list = i === terms.length - 1 ? this.prefixList(terms[i]!) : this.exactList(terms[i]!);
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

    const best = new TopKeys(Math.min(k, rarest.end - rarest.start));
    const { docs, weights, shift } = rarest;
    const nameRank = this.nameRank;
    // Offers at or below this are refused by `best`: no need to compute them.
    let floor = -Infinity;
    let total = 0;
    if (rest.length === 0) {
      // One word: every product of its list is a hit (a loop of its own runs faster).
      total = rarest.end - rarest.start;
      // (No floor test here: with scores mixed at random along the list it mispredicts more than it saves.)
      for (let i = rarest.start; i < rarest.end; i++) best.offer((weights[i]! >> shift) * n + (n - 1 - nameRank[docs[i]!]!));
    } else outer: for (let i = rarest.start; i < rarest.end; i++) {
      const doc = docs[i]!;
      let score = weights[i]! >> shift;
      for (let j = 0; j < denseWeights.length; j++) {
        const weight = denseWeights[j]![doc]!;
        if (weight === 0) continue outer;
        score += weight >> dense[j]!.shift;
      }
      for (let j = 0; j < sparse.length; j++) {
        const other = sparse[j]!;
        const at = gallop(other.docs, other.end, doc, cursors[j]!);
        cursors[j] = at;
        if (at >= other.end || other.docs[at] !== doc) continue outer;
        score += other.weights[at]! >> other.shift;
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

  private exactList(token: string): TermList {
    const t = this.tokenIndex.get(token);
    return t === undefined ? EMPTY : this.tokenList(t, 0);
  }

  private tokenList(t: number, shift: number): TermList {
    return { docs: this.docs, weights: this.weights, start: this.offsets[t]!, end: this.offsets[t + 1]!, shift, key: `=${this.sortedTokens[t]}` };
  }

  /** The list's (unshifted) weight of every product, 0 where it has none; kept between queries. */
  private denseWeights(list: TermList): Uint8Array {
    const key = `#${list.key}`;
    const cached = this.cached(key);
    if (cached !== undefined) return cached as Uint8Array;
    const byProduct = new Uint8Array(this.products.length);
    for (let i = list.start; i < list.end; i++) byProduct[list.docs[i]!] = list.weights[i]!;
    this.remember(key, byProduct, byProduct.length);
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
    if (hi === lo) return EMPTY;
    if (hi - lo === 1) return this.tokenList(lo, this.sortedTokens[lo] === prefix ? 0 : 1);
    const key = `^${prefix}`;
    const cached = this.cached(key);
    if (cached !== undefined) return cached as TermList;
    const union = this.union(prefix, lo, hi);
    this.remember(key, union, union.end * 5);
    return union;
  }

  /** The union of the lists of tokens `[lo, hi)`, which all start with `prefix`. */
  private union(prefix: string, lo: number, hi: number): TermList {
    const best = new Uint8Array(this.products.length);
    const seen: number[] = [];
    // The tokens of a prefix are consecutive, so are their postings.
    const exact = this.sortedTokens[lo] === prefix ? this.offsets[lo + 1]! : this.offsets[lo]!;
    for (let i = this.offsets[lo]!; i < this.offsets[hi]!; i++) {
      const doc = this.docs[i]!;
      const weight = i < exact ? this.weights[i]! : this.weights[i]! >> 1;
      const current = best[doc]!;
      if (current === 0) seen.push(doc);
      if (weight > current) best[doc] = weight;
    }
    const docs = Int32Array.from(seen).sort();
    const weights = new Uint8Array(docs.length);
    for (let i = 0; i < docs.length; i++) weights[i] = best[docs[i]!]!;
    const key = `^${prefix}`;
    // The weights by product come for free here: keep them too if the list is long.
    if (docs.length >= this.products.length * DENSE_FRACTION) this.remember(`#${key}`, best, best.length);
    return { docs, weights, start: 0, end: docs.length, shift: 0, key };
  }

  private cached(key: string): unknown {
    const entry = this.cache.get(key);
    if (entry === undefined) return undefined;
    // Re-inserted, so that the first entry is always the least recently used.
    this.cache.delete(key);
    this.cache.set(key, entry);
    return entry.value;
  }

  private remember(key: string, value: unknown, bytes: number): void {
    if (bytes > CACHE_BYTES / 4 || this.cache.has(key)) return;
    this.cache.set(key, { value, bytes });
    this.cacheBytes += bytes;
    while (this.cacheBytes > CACHE_BYTES) {
      const [oldest, entry] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      this.cacheBytes -= entry.bytes;
    }
  }
}
