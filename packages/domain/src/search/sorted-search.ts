/** Searches over sorted arrays used by the menu index. */

/** The first position in `[from, end)` whose value is >= `target`, or `end` (exponential, then binary search). */
export function gallop(docs: Int32Array, end: number, target: number, from: number): number {
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

/** The first position in `sorted` whose value is >= `value`, or its length. */
export function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
