/**
 * Version 5 (after 004, webhooks): an account's erasure recorded before its steps run (issue 32
 * item 3), so that an erasure cut short by a crash is found and finished by the sweep.
 *
 * customers.erasure_requested_at: null for a live account; set, the account reads as gone and the
 * row waits for the sweep, which deletes it last. customers_erasing: the sweep's read, oldest mark
 * first, holding only the rows being erased (partial).
 */
import type { Migration } from './migration.js';

export const erasurePending: Migration = {
  name: 'erasure pending',
  sql: `
ALTER TABLE customers ADD COLUMN erasure_requested_at timestamptz;
CREATE INDEX customers_erasing ON customers (erasure_requested_at, customer_id) WHERE erasure_requested_at IS NOT NULL;
`,
};
