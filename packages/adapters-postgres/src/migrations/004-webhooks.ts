/**
 * Version 4 (after 003, kitchen queues): outgoing webhooks (DECISIONS "Webhooks (outgoing)").
 *
 * webhook_endpoints: one row per endpoint; its secrets (newest first, a few at most) as jsonb.
 *
 * webhook_deliveries: one row per (endpoint, event), the unique key that makes enqueue idempotent.
 * The payload is text, not jsonb: it is signed byte for byte, and jsonb would rewrite it. There is
 * no foreign key to the endpoint: deliveries are written by the outbox relay while an admin may be
 * removing the endpoint, and the delivery store removes an endpoint's rows itself. `seq` breaks
 * ties between equal times (delivery ids are random). `ready_at` (pending rows only) is when the
 * lease looks at a row again: its due time, or a little later for a row a lease found held back
 * by an earlier version of its order (see postgres-webhook-delivery-store.ts); never later than
 * the row can be handed out, except by that little.
 *
 * Indexes, each for one read:
 * - webhook_deliveries_due: the lease's scan of pending rows by `ready_at` (only pending rows);
 * - webhook_deliveries_pending_order: the lease's ordering rule, "no pending row of the same
 *   endpoint and order with a lower version" (an index probe per candidate);
 * - webhook_deliveries_by_endpoint / _by_endpoint_status: an endpoint's list, newest first, all or
 *   of one status;
 * - webhook_deliveries_pending_age: the oldest pending row for the stats.
 */
import type { Migration } from './migration.js';

export const webhooks: Migration = {
  name: 'outgoing webhooks',
  sql: `
CREATE TABLE webhook_endpoints (
  webhook_id text COLLATE "C" PRIMARY KEY,
  url text NOT NULL,
  events text[] NOT NULL,
  description text NOT NULL,
  enabled boolean NOT NULL,
  disabled_reason text,
  secrets jsonb NOT NULL,
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  delivery_id text COLLATE "C" PRIMARY KEY,
  webhook_id text COLLATE "C" NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  type text NOT NULL,
  payload text NOT NULL,
  order_id text COLLATE "C",
  order_version integer,
  created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  lease_token text,
  lease_until timestamptz,
  ready_at timestamptz,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  CONSTRAINT webhook_deliveries_once_per_event UNIQUE (webhook_id, event_id),
  CONSTRAINT webhook_deliveries_pending_due CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  CONSTRAINT webhook_deliveries_pending_ready CHECK ((status = 'pending') = (ready_at IS NOT NULL))
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (ready_at, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_pending_order ON webhook_deliveries (webhook_id, order_id, order_version)
  WHERE status = 'pending' AND order_id IS NOT NULL;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (webhook_id, created_at DESC, seq DESC);
CREATE INDEX webhook_deliveries_by_endpoint_status ON webhook_deliveries (webhook_id, status, created_at DESC, seq DESC);
CREATE INDEX webhook_deliveries_pending_age ON webhook_deliveries (created_at) WHERE status = 'pending';
`,
};
