/**
 * The sweep a write carries for its table (a CTE named `swept`): it deletes a few rows that expired
 * long ago, oldest first, skipping rows another transaction holds, so the table stays bounded
 * without a job of its own. Ordered by `expires_at`, the sweep reads the table's expiry index in
 * every plan; without the ORDER BY, a plan made where the bound cannot be estimated (a generic plan,
 * or a table never analyzed, as a new deployment's are) scans the whole table for those few rows,
 * on every write (docs/performance.md, "Placement planned once"). test/plans-by-index.spec.ts checks
 * every sweep listed here.
 */
export interface ExpirySweep {
  readonly table: string;
  /** The CTE, `swept AS (…)`, for a `WITH` before the write. */
  readonly text: string;
}

const sweeps: ExpirySweep[] = [];

/** Every sweep, for the test. */
export const EXPIRY_SWEEPS: readonly ExpirySweep[] = sweeps;

/**
 * `expired`: the condition on `expires_at` (and anything the sweep must spare); at most `batch` rows
 * a write. The rows are deleted by their `ctid`, locked by the same statement: a TID scan, whatever
 * the batch and the table's size (a semi-join on the key could hash the whole table).
 */
export function expirySweep(table: string, expired: string, batch: number): ExpirySweep {
  const sweep = {
    table,
    text: `swept AS (
  DELETE FROM ${table} WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM ${table}
     WHERE ${expired}
     ORDER BY expires_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)))`,
  };
  sweeps.push(sweep);
  return sweep;
}
