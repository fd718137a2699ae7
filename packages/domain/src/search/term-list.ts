/**
 * The products one query word matches, as the ranking reads them, and how a match is valued.
 *
 * A posting's weight byte holds the field weight in half units in its low six bits (name 16,
 * category and tags 8, description 2; a prefix hit half of that) and, in its top two bits, the
 * edits the word needed (0 for an exact or prefix hit, 1–2 for a typo hit). Exact and prefix lists
 * are the index's own postings read with a `shift` (1 halves them: a prefix-only hit); lists that
 * hold typo hits are built per word and read with shift 0.
 */
import { WEIGHT } from './postings.js';
import { MAX_EDITS } from './typo-rules.js';

/** The postings `[start, end)` of `docs`/`weights` as one query term reads them. */
export interface TermList {
  readonly docs: Int32Array;
  readonly weights: Uint8Array;
  readonly start: number;
  readonly end: number;
  readonly shift: number;
  /** Where the list and its weights by product are cached. */
  readonly key: string;
}

/** The index's postings: token t's are `[offsets[t], offsets[t + 1])` of `docs` and `weights`. */
export interface Postings {
  readonly offsets: Int32Array;
  readonly docs: Int32Array;
  readonly weights: Uint8Array;
}

/** A list built for a query term (a union of several tokens' postings), and its weights by product. */
export interface BuiltList {
  readonly list: TermList;
  /** Each product's weight byte in the list, 0 where it has none (what the index keeps for long lists). */
  readonly byProduct: Uint8Array;
}

export const EMPTY_LIST: TermList = { docs: new Int32Array(0), weights: new Uint8Array(0), start: 0, end: 0, shift: 0, key: '' };

const EDITS_SHIFT = 6;
const WEIGHT_MASK = (1 << EDITS_SHIFT) - 1;

/** A weight byte for a hit of `weight` (half units, already halved for a prefix) after `edits`. */
export function weightByte(weight: number, edits: number): number {
  return (edits << EDITS_SHIFT) | weight;
}

/**
 * The byte's order as a match of one word: fewer edits first, then the heavier field. Higher is
 * better; 0 is no match (every hit weighs at least 1).
 */
export function matchOrder(byte: number): number {
  return ((3 - (byte >> EDITS_SHIFT)) << EDITS_SHIFT) | (byte & WEIGHT_MASK);
}

/** The weight byte back from `matchOrder`. */
export function fromMatchOrder(order: number): number {
  return ((3 - (order >> EDITS_SHIFT)) << EDITS_SHIFT) | (order & WEIGHT_MASK);
}

const worthTables: Int32Array[] = [];

/**
 * What a match of one word of a `words`-word query is worth, by weight byte, for a list read with
 * `shift`: its weight, plus a unit for each edit it did not need. The unit is more than any sum of
 * the words' weights, so that in a product's sum over the words the edits rank first, then the
 * weights; and the sum stays positive. Made once per query length and shift.
 */
export function worthTable(words: number, shift: number): Int32Array {
  const at = 2 * words + shift;
  let table = worthTables[at];
  if (table === undefined) {
    const unit = WEIGHT.name * words + 1;
    table = new Int32Array(256);
    for (let byte = 0; byte < 256; byte++) table[byte] = ((byte >> shift) & WEIGHT_MASK) + (MAX_EDITS - (byte >> EDITS_SHIFT)) * unit;
    worthTables[at] = table;
  }
  return table;
}
