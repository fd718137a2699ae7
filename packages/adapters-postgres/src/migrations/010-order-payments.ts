/**
 * Version 10: card payments on orders (DECISIONS "Payments", issue 35).
 *
 * An order's payment is `payment` (jsonb: everything but its intent id and its next check),
 * `payment_intent_id` (unique: one intent is one order, found by the provider's events) and
 * `payment_check_at` (the sweeper's queue, claimed as a lease by one UPDATE … SKIP LOCKED). Each
 * field lives in one place. Orders stored before have none of the three (NULL: paid on pickup).
 *
 * `awaiting_payment` is a status like any other (no constraint lists them): it gets its list's
 * size row, and storefront_order_is_open leaves it out of the kitchen's open queue. A kitchen move
 * now writes the payment when it changes with the move, in the same compare-and-set UPDATE: an
 * overload of storefront_move_order, the previous one kept for instances of the previous release
 * still running during a rolling deploy (their moves keep the stored payment).
 */
import type { Migration } from './migration.js';

export const orderPayments: Migration = {
  name: 'order payments',
  sql: `
ALTER TABLE orders
  ADD COLUMN payment jsonb,
  ADD COLUMN payment_intent_id text COLLATE "C",
  ADD COLUMN payment_check_at timestamptz;
CREATE UNIQUE INDEX orders_payment_intent ON orders (payment_intent_id) WHERE payment_intent_id IS NOT NULL;
CREATE INDEX orders_payment_check ON orders (payment_check_at, order_id) WHERE payment_check_at IS NOT NULL;

INSERT INTO order_list_sizes (list, size) VALUES ('status:awaiting_payment', 0) ON CONFLICT (list) DO NOTHING;

-- A kitchen move (or a payment's change): one compare-and-set on the version, after the lock of
-- the shared queue. A NULL new_payment keeps the stored payment and its two columns.
CREATE FUNCTION storefront_move_order(move_order_id text, from_version integer, to_status text, moved_at timestamptz, move_reason text, history_entry jsonb,
                                      new_payment jsonb, new_intent_id text, new_check_at timestamptz)
RETURNS SETOF orders LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM order_list_sizes WHERE list = 'open' FOR UPDATE;
  RETURN QUERY
    UPDATE orders SET
      status = to_status,
      version = from_version + 1,
      updated_at = moved_at,
      status_history = status_history || jsonb_build_array(history_entry),
      -- published_version stays (at most from_version: a mark never passes the version), so this move's event is due.
      reason = coalesce(move_reason, reason),
      payment = CASE WHEN new_payment IS NULL THEN payment ELSE new_payment END,
      payment_intent_id = CASE WHEN new_payment IS NULL THEN payment_intent_id ELSE new_intent_id END,
      payment_check_at = CASE WHEN new_payment IS NULL THEN payment_check_at ELSE new_check_at END
    WHERE order_id = move_order_id AND version = from_version
    RETURNING *;
END $$;
`,
};
