/**
 * Version 9: the payment provider's events taken in (issue 35 item 5), one row per (provider,
 * event id): the primary key is what makes a claim atomic. `lease_until` is when an unfinished
 * claim may be taken again; `completed_at` is set once the event has taken effect, and retention
 * deletes by it (the partial index holds only completed rows, oldest first).
 */
import type { Migration } from './migration.js';

export const providerEvents: Migration = {
  name: 'provider events',
  sql: `
CREATE TABLE provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL,
  completed_at timestamptz,
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX provider_events_completed ON provider_events (completed_at) WHERE completed_at IS NOT NULL;
`,
};
