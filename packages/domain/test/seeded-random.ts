/**
 * A small seeded generator (mulberry32) in [0, 1): the same "random" data on every run. A copy of
 * `seededRandom` of @storefront/testing, kept here because that package depends on the domain: the
 * domain's tests importing it would make the project references a cycle.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
