/**
 * The list of a prefix matching several tokens (`c`, `sp`): the union of their postings, each
 * product with its best weight, the token equal to the prefix at full weight and the longer ones at
 * half (a prefix hit).
 */
import type { BuiltList, Postings } from './term-list.js';

/** The union of the lists of tokens `[lo, hi)` of `sortedTokens`, which all start with `prefix`. */
export function prefixUnion(sortedTokens: readonly string[], postings: Postings, productCount: number, prefix: string, lo: number, hi: number): BuiltList {
  const { offsets, docs, weights } = postings;
  const best = new Uint8Array(productCount);
  const seen: number[] = [];
  // The tokens of a prefix are consecutive, so are their postings.
  const exact = sortedTokens[lo] === prefix ? offsets[lo + 1]! : offsets[lo]!;
  for (let i = offsets[lo]!; i < offsets[hi]!; i++) {
    const doc = docs[i]!;
    const weight = i < exact ? weights[i]! : weights[i]! >> 1;
    const current = best[doc]!;
    if (current === 0) seen.push(doc);
    if (weight > current) best[doc] = weight;
  }
  const list = Int32Array.from(seen).sort();
  const bytes = new Uint8Array(list.length);
  for (let i = 0; i < list.length; i++) bytes[i] = best[list[i]!]!;
  return { list: { docs: list, weights: bytes, start: 0, end: list.length, shift: 0, key: `^${prefix}` }, byProduct: best };
}
