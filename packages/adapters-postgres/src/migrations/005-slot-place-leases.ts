/**
 * Version 5: a slot place is pending until its order is stored (docs/decisions.md, "Slot places").
 * `held_until` is the pending place's lease; NULL once confirmed by the stored order, and for
 * every place taken before this version (their orders were stored or are lost with no way to tell;
 * kept, as before). The partial index serves the look for lapsed leases.
 */
import type { Migration } from './migration.js';

export const slotPlaceLeases: Migration = {
  name: 'slot place leases',
  sql: `
ALTER TABLE slot_holders ADD COLUMN held_until timestamptz;
CREATE INDEX slot_holders_pending ON slot_holders (slot) WHERE held_until IS NOT NULL;
`,
};
