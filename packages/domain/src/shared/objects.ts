/**
 * `{ ...base, ...fields }` for the hot paths, built by `Object.assign`. On Node 20 (V8 11.3) a
 * literal that opens with a spread defines every field after it on a slow path (docs/performance.md,
 * "Literals that open with a spread", has the figures); `Object.assign` copies the same own fields
 * on the fast one. For objects of our own making only: unlike a spread it would run a `__proto__`
 * setter, so never hand it parsed input.
 */
export function withFields<T extends object, U extends object>(base: T, fields: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, fields);
}
