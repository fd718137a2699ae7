/**
 * Version 2: fulfilment (DECISIONS "Fulfilment").
 *
 * Orders gain their money breakdown, their fulfilment (jsonb: type, time, address, zone) and
 * `promised_at`, the kitchen's sort key: each status's queue and the open queue are now ordered
 * by (promised_at, created_at, order_id), so the list triggers compare that key. Orders stored
 * before are pickup promised when placed (promised_at = created_at, subtotal = amount): their
 * order in every list is what it was, so no position moves.
 *
 * Slot capacity: slot_places holds the count of each slot (the ceiling is checked by one
 * conditional upsert on its row), slot_holders the orders holding a place (a retried take finds
 * its row and takes no second place; a release deletes it and gives one back).
 */
import type { Migration } from './migration.js';

const listKey = (row: string) => `(${row}.promised_at, ${row}.created_at, ${row}.order_id)`;

export const fulfilment: Migration = {
  name: 'fulfilment and slot places',
  sql: `
ALTER TABLE orders
  ADD COLUMN subtotal bigint,
  ADD COLUMN delivery_fee bigint NOT NULL DEFAULT 0,
  ADD COLUMN tip bigint NOT NULL DEFAULT 0,
  ADD COLUMN fulfilment jsonb,
  ADD COLUMN promised_at timestamptz;
UPDATE orders SET promised_at = created_at, subtotal = amount;
ALTER TABLE orders ALTER COLUMN promised_at SET NOT NULL, ALTER COLUMN subtotal SET NOT NULL;

DROP INDEX orders_by_status;
DROP INDEX orders_open_by_time;
CREATE INDEX orders_by_status ON orders (status, promised_at, created_at, order_id);
CREATE INDEX orders_open_by_promise ON orders (promised_at, created_at, order_id) WHERE open_seq IS NOT NULL;
CREATE INDEX orders_with_address ON orders (customer_id) WHERE fulfilment ? 'address';

CREATE OR REPLACE FUNCTION storefront_orders_enter_lists() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  size bigint;
  newer bigint;
BEGIN
  PERFORM storefront_grow_list('open', 0);
  IF TG_OP = 'INSERT' THEN
    size := storefront_grow_list('customer:' || NEW.customer_id, 1);
    UPDATE orders SET customer_seq = customer_seq + 1
      WHERE customer_id = NEW.customer_id AND (created_at, order_id) > (NEW.created_at, NEW.order_id);
    GET DIAGNOSTICS newer = ROW_COUNT;
    NEW.customer_seq := size - newer;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM storefront_grow_list('status:' || OLD.status, -1);
    UPDATE orders o SET status_seq = status_seq - 1
      WHERE o.status = OLD.status AND ${listKey('o')} > ${listKey('OLD')} AND o.order_id <> OLD.order_id;
  END IF;

  size := storefront_grow_list('status:' || NEW.status, 1);
  UPDATE orders o SET status_seq = status_seq + 1
    WHERE o.status = NEW.status AND ${listKey('o')} > ${listKey('NEW')} AND o.order_id <> NEW.order_id;
  GET DIAGNOSTICS newer = ROW_COUNT;
  NEW.status_seq := size - newer;

  IF TG_OP = 'UPDATE' AND storefront_order_is_open(OLD.status) AND storefront_order_is_open(NEW.status) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND storefront_order_is_open(OLD.status) THEN
    PERFORM storefront_grow_list('open', -1);
    UPDATE orders o SET open_seq = open_seq - 1
      WHERE o.open_seq IS NOT NULL AND ${listKey('o')} > ${listKey('OLD')} AND o.order_id <> OLD.order_id;
  END IF;
  IF storefront_order_is_open(NEW.status) THEN
    size := storefront_grow_list('open', 1);
    UPDATE orders o SET open_seq = open_seq + 1
      WHERE o.open_seq IS NOT NULL AND ${listKey('o')} > ${listKey('NEW')} AND o.order_id <> NEW.order_id;
    GET DIAGNOSTICS newer = ROW_COUNT;
    NEW.open_seq := size - newer;
  ELSE
    NEW.open_seq := NULL;
  END IF;
  RETURN NEW;
END $$;

CREATE TABLE slot_places (
  slot  timestamptz PRIMARY KEY,
  taken integer NOT NULL CHECK (taken >= 0)
);
CREATE TABLE slot_holders (
  slot     timestamptz NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (slot, order_id)
);
`,
};
