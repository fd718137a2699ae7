/**
 * One query word's list once typos are let in: the union of its exact (or prefix) list with the
 * postings of the tokens a typo reaches, each product keeping its best match of the word (fewest
 * edits, then the heaviest field; see `matchOrder`).
 */
import type { BuiltList, Postings, TermList } from './term-list.js';
import { fromMatchOrder, matchOrder, weightByte } from './term-list.js';
import type { TypoMatches } from './typo-vocabulary.js';

export function typoUnion(base: TermList, typos: TypoMatches, postings: Postings, productCount: number, key: string): BuiltList {
  // The best match of each product so far, in `matchOrder` (0: none yet).
  const best = new Uint8Array(productCount);
  const seen: number[] = [];
  const offer = (doc: number, byte: number): void => {
    const order = matchOrder(byte);
    const current = best[doc]!;
    if (current === 0) seen.push(doc);
    if (order > current) best[doc] = order;
  };
  for (let i = base.start; i < base.end; i++) offer(base.docs[i]!, base.weights[i]! >> base.shift);
  const { offsets, docs, weights } = postings;
  for (let m = 0; m < typos.tokens.length; m++) {
    const t = typos.tokens[m]!;
    const edits = typos.edits[m]!;
    // A typo of a prefix weighs half, as a prefix does.
    const shift = typos.whole[m]! ? 0 : 1;
    for (let i = offsets[t]!; i < offsets[t + 1]!; i++) offer(docs[i]!, weightByte(weights[i]! >> shift, edits));
  }
  const list = Int32Array.from(seen).sort();
  const bytes = new Uint8Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    const byte = fromMatchOrder(best[doc]!);
    best[doc] = byte;
    bytes[i] = byte;
  }
  return { list: { docs: list, weights: bytes, start: 0, end: list.length, shift: 0, key }, byProduct: best };
}
