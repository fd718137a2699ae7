/**
 * Building the index's flat posting lists (see MenuSearchIndex for the layout and why) and the
 * products' order by name, both once per menu revision.
 */
import type { Product } from '../menu/product.js';
import { forEachToken } from './normalize.js';

/** Field weights in half units: name 8, category and tags 4, description 1; a prefix hit is half. */
export const WEIGHT = { name: 16, category: 8, tags: 8, description: 2 } as const;

export interface BuiltPostings {
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
export function buildPostings(products: readonly Product[]): BuiltPostings {
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
export function rankByName(products: readonly Product[]): [nameRank: Int32Array, byNameRank: Int32Array] {
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
