/**
 * The search rules of DECISIONS ("Products and search", "Search tolerates typos") applied the slow
 * way, product by product and word by word, with nothing shared with the index but `tokenize`:
 * what the index must answer.
 */
import type { Product } from '../src/menu/product.js';
import { tokenize } from '../src/search/normalize.js';

let productCount = 0;
/** A product to search: a unique id, the given name, the rest plain unless `fields` says otherwise. */
export function searchProduct(name: string, fields: Partial<Product> = {}): Product {
  productCount += 1;
  return { productId: `prd_${productCount}`, name, description: '', category: 'Mains', price: 1000, currency: 'USD', tags: [], available: true, optionGroups: [], ...fields };
}

/** Optimal string alignment distance (insertions, deletions, substitutions, neighbour swaps), in full. */
export function osaTable(a: string, b: string): number[][] {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      const up = d[i - 1]!;
      row[j] = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d;
}

export function osa(a: string, b: string): number {
  return osaTable(a, b)[a.length]![b.length]!;
}

/** The fewest edits from any non-empty prefix of `word` to `query`. */
export function prefixDistance(word: string, query: string): number {
  const table = osaTable(word, query);
  return Math.min(...table.slice(1).map((row) => row[query.length]!));
}

/** Edits allowed to a query word: by letters (code points), none for a word with a digit. */
export function budget(word: string): number {
  const letters = [...word].length;
  if (/\p{N}/u.test(word)) return 0;
  return letters >= 8 ? 2 : letters >= 4 ? 1 : 0;
}

export interface Match {
  readonly edits: number;
  readonly weight: number;
}

const better = (a: Match | null, b: Match): Match => (a === null || b.edits < a.edits || (b.edits === a.edits && b.weight > a.weight) ? b : a);

/** How `term` matches one token of a field of `weight`: exact, prefix (last word), typo, typo'd prefix. */
export function matchToken(term: string, token: string, weight: number, last: boolean, typos = true): Match | null {
  let best: Match | null = null;
  if (token === term) best = better(best, { edits: 0, weight });
  if (last && token.startsWith(term)) best = better(best, { edits: 0, weight: weight / 2 });
  const allowed = typos ? budget(term) : 0;
  if (allowed > 0 && !/\p{N}/u.test(token)) {
    const whole = osa(token, term);
    const prefix = prefixDistance(token, term);
    if (whole <= allowed) best = better(best, { edits: whole, weight });
    if (last && prefix <= allowed) best = better(best, { edits: prefix, weight: weight / 2 });
  }
  return best;
}

/** Name 8, category and tags 4, description 1. */
const fieldsOf = new WeakMap<Product, [string[], number][]>();
function fields(p: Product): [string[], number][] {
  let found = fieldsOf.get(p);
  if (found === undefined) {
    found = [
      [tokenize(p.name), 8],
      [tokenize(p.category), 4],
      [tokenize(p.tags.join(' ')), 4],
      [tokenize(p.description), 1],
    ];
    fieldsOf.set(p, found);
  }
  return found;
}

/**
 * The page the rules give: fewest edits in all first, then the highest sum of weights, then name,
 * then position; and how many of all the hits needed a typo. `typos: false`: the rules before typos.
 */
export function referenceSearch(
  products: readonly Product[],
  query: string,
  page: number,
  limit: number,
  { typos = true } = {},
): { total: number; ids: string[]; typos: number } {
  const terms = tokenize(query);
  const hits: { p: Product; i: number; edits: number; score: number }[] = [];
  // Each (word of the query, token, weight) is worked out once: menus repeat their words.
  const memos = terms.map(() => new Map<number, Map<string, Match | null>>());
  const memo = (t: number, token: string, weight: number, match: () => Match | null): Match | null => {
    let byToken = memos[t]!.get(weight);
    if (byToken === undefined) memos[t]!.set(weight, (byToken = new Map()));
    const known = byToken.get(token);
    if (known !== undefined) return known;
    const found = match();
    byToken.set(token, found);
    return found;
  };
  products.forEach((p, i) => {
    let edits = 0;
    let score = 0;
    for (const [t, term] of terms.entries()) {
      let best: Match | null = null;
      for (const [tokens, weight] of fields(p)) {
        for (const token of tokens) {
          const match = memo(t, token, weight, () => matchToken(term, token, weight, t === terms.length - 1, typos));
          if (match !== null) best = better(best, match);
        }
      }
      if (best === null) return;
      edits += best.edits;
      score += best.weight;
    }
    if (terms.length > 0) hits.push({ p, i, edits, score });
  });
  hits.sort((a, b) => a.edits - b.edits || b.score - a.score || (a.p.name < b.p.name ? -1 : a.p.name > b.p.name ? 1 : a.i - b.i));
  return { total: hits.length, ids: hits.slice((page - 1) * limit, page * limit).map((h) => h.p.productId), typos: hits.filter((h) => h.edits > 0).length };
}
