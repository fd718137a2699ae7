/**
 * An in-process inverted index over the menu (the menu is read-mostly, so it is built once per
 * menu revision). Matching rules: every word of the query must match a word of the product's
 * name, category, tags or description, case- and accent-insensitively; the last word also matches
 * as a prefix (search-as-you-type). Ranking: name hits weigh most, then category and tags, then
 * description; exact words beat prefixes; ties by name.
 */
import type { Page, PageRequest } from '../model/page.js';
import { pageOffset, toPage } from '../model/page.js';
import type { Product } from '../model/product.js';
import { tokenize } from './normalize.js';
import { topK } from './top-k.js';

const WEIGHT = { name: 8, category: 4, tags: 4, description: 1 } as const;

/** token → (product index → best field weight) */
type Postings = Map<number, number>;

interface Hit {
  readonly index: number;
  readonly score: number;
}

export class MenuSearchIndex {
  private readonly postings = new Map<string, Postings>();
  private readonly sortedTokens: string[];

  private constructor(private readonly products: readonly Product[]) {
    products.forEach((product, index) => {
      this.add(product.name, WEIGHT.name, index);
      this.add(product.category, WEIGHT.category, index);
      this.add(product.tags.join(' '), WEIGHT.tags, index);
      this.add(product.description, WEIGHT.description, index);
    });
    this.sortedTokens = [...this.postings.keys()].sort();
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

    const perTerm: Postings[] = terms.map((term, i) =>
      i === terms.length - 1 ? this.prefixPostings(term) : (this.postings.get(term) ?? new Map()),
    );
    // Walk the rarest term's postings and check the others: cost follows the smallest list.
    perTerm.sort((a, b) => a.size - b.size);
    const [rarest, ...others] = perTerm;
    const hits: Hit[] = [];
    for (const [index, weight] of rarest!) {
      let score = weight;
      let matchesAll = true;
      for (const postings of others) {
        const w = postings.get(index);
        if (w === undefined) {
          matchesAll = false;
          break;
        }
        score += w;
      }
      if (matchesAll) hits.push({ index, score });
    }

    const offset = pageOffset(page);
    const best = topK(hits, offset + page.limit, (a, b) => this.compareHits(a, b));
    const items = best.slice(offset).map((hit) => this.products[hit.index]!);
    return toPage(items, hits.length, page);
  }

  private compareHits(a: Hit, b: Hit): number {
    if (a.score !== b.score) return b.score - a.score;
    const pa = this.products[a.index]!;
    const pb = this.products[b.index]!;
    if (pa.name !== pb.name) return pa.name < pb.name ? -1 : 1;
    return a.index - b.index;
  }

  private add(text: string, weight: number, index: number): void {
    for (const token of tokenize(text)) {
      let postings = this.postings.get(token);
      if (postings === undefined) {
        postings = new Map();
        this.postings.set(token, postings);
      }
      const current = postings.get(index) ?? 0;
      if (weight > current) postings.set(index, weight);
    }
  }

  /** Postings of every token that starts with `prefix`; a prefix-only hit weighs half. */
  private prefixPostings(prefix: string): Postings {
    const merged: Postings = new Map(this.postings.get(prefix) ?? []);
    let i = lowerBound(this.sortedTokens, prefix);
    for (; i < this.sortedTokens.length; i++) {
      const token = this.sortedTokens[i]!;
      if (!token.startsWith(prefix)) break;
      if (token === prefix) continue;
      for (const [index, weight] of this.postings.get(token)!) {
        const half = weight / 2;
        if (half > (merged.get(index) ?? 0)) merged.set(index, half);
      }
    }
    return merged;
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
