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
 * their lists; the last unions built are kept (bounded by their total size), since
 * search-as-you-type asks for the same prefixes again and again.
 */
import type { Page, PageRequest } from '../model/page.js';
import { pageOffset, toPage } from '../model/page.js';
import type { Product } from '../model/product.js';
import { forEachToken, tokenize } from './normalize.js';

/** Field weights in half units: name 8, category and tags 4, description 1; a prefix hit is half. */
const WEIGHT = { name: 16, category: 8, tags: 8, description: 2 } as const;

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
}

const EMPTY: TermList = { docs: new Int32Array(0), weights: new Uint8Array(0), start: 0, end: 0, shift: 0 };

/** Prefix unions kept per index: at most this many postings in all (5 bytes each), and entries. */
const PREFIX_CACHE_POSTINGS = 4_000_000;
const PREFIX_CACHE_ENTRIES = 512;

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
  private readonly prefixCache = new Map<string, TermList>();
  private prefixCachePostings = 0;

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

    const lists: TermList[] = [];
    for (let i = 0; i < terms.length; i++) {
      const list = i === terms.length - 1 ? this.prefixList(terms[i]!) : this.exactList(terms[i]!);
      if (list.end === list.start) return toPage([], 0, page);
      lists.push(list);
    }
    // Walk the rarest term's list and look the others up: cost follows the smallest list.
    lists.sort((a, b) => a.end - a.start - (b.end - b.start));
    const [rarest, ...others] = lists as [TermList, ...TermList[]];
    const cursors = Int32Array.from(others, (other) => other.start);

    const n = this.products.length;
    const offset = pageOffset(page);
    const best = new TopKeys(Math.min(offset + page.limit, rarest.end - rarest.start));
    let total = 0;
    const { docs, weights, shift } = rarest;
    outer: for (let i = rarest.start; i < rarest.end; i++) {
      const doc = docs[i]!;
      let score = weights[i]! >> shift;
      for (let j = 0; j < others.length; j++) {
        const other = others[j]!;
        const at = gallop(other.docs, other.end, doc, cursors[j]!);
        cursors[j] = at;
        if (at >= other.end || other.docs[at] !== doc) continue outer;
        score += other.weights[at]! >> other.shift;
      }
      total += 1;
      // Higher is better: the score first, then the earlier name (the rank also orders ties by index).
      best.offer(score * n + (n - 1 - this.nameRank[doc]!));
    }

    const ranked = best.sortedDescending();
    const items: Product[] = [];
    for (let i = offset; i < ranked.length; i++) {
      const rank = n - 1 - (ranked[i]! % n);
      items.push(this.products[this.byNameRank[rank]!]!);
    }
    return toPage(items, total, page);
  }

  private exactList(token: string): TermList {
    const t = this.tokenIndex.get(token);
    return t === undefined ? EMPTY : this.tokenList(t, 0);
  }

  private tokenList(t: number, shift: number): TermList {
    return { docs: this.docs, weights: this.weights, start: this.offsets[t]!, end: this.offsets[t + 1]!, shift };
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
    const cached = this.prefixCache.get(prefix);
    if (cached !== undefined) {
      // Re-inserted, so that the first entry is always the least recently used.
      this.prefixCache.delete(prefix);
      this.prefixCache.set(prefix, cached);
      return cached;
    }
    const union = this.union(prefix, lo, hi);
    this.remember(prefix, union);
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
    return { docs, weights, start: 0, end: docs.length, shift: 0 };
  }

  private remember(prefix: string, union: TermList): void {
    const size = union.end;
    if (size > PREFIX_CACHE_POSTINGS / 4) return;
    this.prefixCache.set(prefix, union);
    this.prefixCachePostings += size;
    while (this.prefixCachePostings > PREFIX_CACHE_POSTINGS || this.prefixCache.size > PREFIX_CACHE_ENTRIES) {
      const [oldest, list] = this.prefixCache.entries().next().value!;
      this.prefixCache.delete(oldest);
      this.prefixCachePostings -= list.end;
    }
  }
}

interface BuiltPostings {
  readonly tokenIndex: Map<string, number>;
  readonly sortedTokens: readonly string[];
  readonly offsets: Int32Array;
  readonly docs: Int32Array;
  readonly weights: Uint8Array;
}

/**
 * One pass over the products collects (token, product, weight) postings, the best weight per token
 * and product (products come in index order, so a repeat is always the token's latest posting);
 * a counting sort by token then lays them out token after token, products still in index order.
 */
function buildPostings(products: readonly Product[]): BuiltPostings {
  const ids = new Map<string, number>();
  const tokens: string[] = [];
  const lastPosting: number[] = [];
  const postingToken: number[] = [];
  const postingDoc: number[] = [];
  const postingWeight: number[] = [];
  let doc = 0;
  let weight = 0;
  const add = (token: string): void => {
    let id = ids.get(token);
    if (id === undefined) {
      id = tokens.length;
      ids.set(token, id);
      tokens.push(token);
      lastPosting.push(-1);
    }
    const last = lastPosting[id]!;
    if (last >= 0 && postingDoc[last] === doc) {
      if (weight > postingWeight[last]!) postingWeight[last] = weight;
      return;
    }
    lastPosting[id] = postingDoc.length;
    postingToken.push(id);
    postingDoc.push(doc);
    postingWeight.push(weight);
  };
  for (; doc < products.length; doc++) {
    const product = products[doc]!;
    weight = WEIGHT.name;
    forEachToken(product.name, add);
    weight = WEIGHT.category;
    forEachToken(product.category, add);
    weight = WEIGHT.tags;
    for (const tag of product.tags) forEachToken(tag, add);
    weight = WEIGHT.description;
    forEachToken(product.description, add);
  }

  const order = Array.from(tokens.keys()).sort((a, b) => (tokens[a]! < tokens[b]! ? -1 : 1));
  const position = new Int32Array(tokens.length);
  order.forEach((id, t) => (position[id] = t));
  const offsets = new Int32Array(tokens.length + 1);
  for (const id of postingToken) offsets[position[id]! + 1]! += 1;
  for (let t = 0; t < tokens.length; t++) offsets[t + 1]! += offsets[t]!;
  const cursor = offsets.slice(0, tokens.length);
  const docs = new Int32Array(postingDoc.length);
  const weights = new Uint8Array(postingDoc.length);
  for (let i = 0; i < postingDoc.length; i++) {
    const at = cursor[position[postingToken[i]!]!]!++;
    docs[at] = postingDoc[i]!;
    weights[at] = postingWeight[i]!;
  }
  for (const [token, id] of ids) ids.set(token, position[id]!);
  return { tokenIndex: ids, sortedTokens: order.map((id) => tokens[id]!), offsets, docs, weights };
}

/** Each product's position in (name, index) order, and the product at each position. */
function rankByName(products: readonly Product[]): [nameRank: Int32Array, byNameRank: Int32Array] {
  // The built-in sort of strings (UTF-16 code units, like `<`) is several times faster than a
  // comparator; equal names then take consecutive ranks in index order.
  const names = products.map((p) => p.name).sort();
  const firstRank = new Map<string, number>();
  for (let r = names.length - 1; r >= 0; r--) firstRank.set(names[r]!, r);
  const nameRank = new Int32Array(products.length);
  const byNameRank = new Int32Array(products.length);
  for (let i = 0; i < products.length; i++) {
    const name = products[i]!.name;
    const rank = firstRank.get(name)!;
    firstRank.set(name, rank + 1);
    nameRank[i] = rank;
    byNameRank[rank] = i;
  }
  return [nameRank, byNameRank];
}

/** The first position in `[from, end)` whose value is >= `target`, or `end` (exponential, then binary search). */
function gallop(docs: Int32Array, end: number, target: number, from: number): number {
  if (from >= end || docs[from]! >= target) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < end && docs[hi]! < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > end) hi = end;
  // Here docs[lo] < target, and docs[hi] >= target or hi === end.
  lo += 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The k largest numbers offered, with a min-heap: O(n log k), and most offers cost one comparison. */
class TopKeys {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(Math.max(0, k));
  }

  offer(key: number): void {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= key) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = key;
      return;
    }
    if (this.k === 0 || key <= heap[0]!) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && heap[right]! < heap[left]! ? right : left;
      if (heap[child]! >= key) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = key;
  }

  /** The kept numbers, largest first. */
  sortedDescending(): Float64Array {
    return this.heap.slice(0, this.size).sort().reverse();
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
