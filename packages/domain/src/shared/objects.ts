/**
 * `{ ...base, ...fields }` for the hot paths, built by `Object.assign`. On Node 20 (V8 11.3) a
 * literal that opens with a spread defines every field after it on a slow path: about a
 * microsecond each on the 2-core machine, 10 µs of a placement for one claim of seven fields
 * (docs/performance.md, "Literals that open with a spread"). `Object.assign` copies the same own
 * fields at the fast path's cost. For objects of our own making only: unlike a spread it would run
 * a `__proto__` setter, so never hand it parsed input.
 */
export function withFields<T extends object, U extends object>(base: T, fields: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, fields);
}
