/**
 * Version 5 (after 004, outgoing webhooks): delivered and failed deliveries are kept
 * WEBHOOK_RETENTION_DAYS, not forever. `expires_at` is set when a delivery finishes (its finish
 * time plus the retention then configured) and cleared when an admin makes it pending again; the
 * housekeeping deletes the rows past it in bounded batches, oldest first, through
 * webhook_deliveries_expiry (finished rows only). Rows finished before this migration have none and
 * stay until their endpoint is removed.
 */
import type { Migration } from './migration.js';

export const webhookRetention: Migration = {
  name: 'webhook delivery retention',
  sql: `
ALTER TABLE webhook_deliveries ADD COLUMN expires_at timestamptz;
CREATE INDEX webhook_deliveries_expiry ON webhook_deliveries (expires_at) WHERE expires_at IS NOT NULL;
`,
};
