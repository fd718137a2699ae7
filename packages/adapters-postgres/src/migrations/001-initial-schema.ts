/**
 * Version 1: every table of the store ports.
 *
 * Sort keys are `COLLATE "C"` (byte order of UTF-8 = code-point order), the order every store
 * agrees on (compareProducts, compareOrders). Emails are unique in any letter case (a unique index
 * on lower(email)); product names likewise (`name_key`).
 *
 * Orders carry dense positions so that page N of a list is an index range scan, whatever N: the
 * customer's list (`customer_seq`), each status's queue (`status_seq`) and the open orders' queue
 * (`open_seq`, null once final). Position k is the k-th order of that list by (created_at,
 * order_id). The triggers below keep them dense: an order entering a list takes the position after
 * the orders older than it, shifting the few newer ones (normally none: orders arrive in time
 * order); an order leaving a list (a status move) shifts the ones after it back. Each list's size
 * lives in order_list_sizes, whose value is the list's total for paging and whose row lock
 * serialises the writers of that list until they commit.
 *
 * Lock order, so that writers never deadlock: 'open' first, then the customer's list (inserts),
 * the status lists, and order rows last. Every order write takes 'open' (the shared queue), so
 * order writes are serialised: one statement each, a short hold (docs/decisions.md, "Orders in
 * PostgreSQL"). A move takes 'open' before it locks its order row (storefront_move_order), since a
 * trigger would run only after the row is locked.
 */
import type { Migration } from './migration.js';

export const initialSchema: Migration = {
  name: 'initial schema',
  sql: `
CREATE TABLE customers (
  customer_id   text COLLATE "C" PRIMARY KEY,
  email         text NOT NULL,
  name          text NOT NULL,
  password_hash text NOT NULL,
  disabled      boolean NOT NULL DEFAULT false,
  role          text NOT NULL DEFAULT 'customer',
  created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));

CREATE TABLE sessions (
  session_id            text COLLATE "C" PRIMARY KEY,
  customer_id           text COLLATE "C" NOT NULL,
  refresh_token_hash    text NOT NULL,
  previous_token_hashes text[] NOT NULL DEFAULT '{}',
  created_at            timestamptz NOT NULL,
  expires_at            timestamptz NOT NULL,
  revoked_at            timestamptz
);
CREATE INDEX sessions_live_by_customer ON sessions (customer_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE password_reset_tokens (
  token_hash  text COLLATE "C" PRIMARY KEY,
  customer_id text COLLATE "C" NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX password_reset_tokens_by_customer ON password_reset_tokens (customer_id);
CREATE INDEX password_reset_tokens_expiry ON password_reset_tokens (expires_at);

CREATE TABLE products (
  product_id    text COLLATE "C" PRIMARY KEY,
  name_key      text COLLATE "C" NOT NULL UNIQUE,
  name          text COLLATE "C" NOT NULL,
  description   text NOT NULL,
  category      text COLLATE "C" NOT NULL,
  price         bigint NOT NULL,
  currency      text NOT NULL,
  tags          text[] NOT NULL,
  available     boolean NOT NULL,
  option_groups jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX products_menu_order ON products (category, name, product_id);

-- One row: the menu's revision. A new epoch per database, so that a wiped database never hands
-- out a revision a client cached before.
CREATE TABLE menu_revision (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  epoch     text NOT NULL,
  version   bigint NOT NULL
);
INSERT INTO menu_revision (epoch, version) VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 8), 0);

CREATE TABLE store_state (
  singleton         boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  accepting_orders  boolean NOT NULL,
  updated_at        timestamptz NOT NULL
);

CREATE TABLE orders (
  order_id          text COLLATE "C" PRIMARY KEY,
  customer_id       text COLLATE "C" NOT NULL,
  items             jsonb NOT NULL,
  amount            bigint NOT NULL,
  currency          text NOT NULL,
  created_at        timestamptz NOT NULL,
  status            text COLLATE "C" NOT NULL,
  version           integer NOT NULL,
  updated_at        timestamptz NOT NULL,
  status_history    jsonb NOT NULL,
  reason            text,
  -- The outbox: the newest version whose event is published; versions above it are due.
  published_version integer NOT NULL DEFAULT 0,
  customer_seq      bigint NOT NULL DEFAULT 0,
  status_seq        bigint NOT NULL DEFAULT 0,
  open_seq          bigint
);
CREATE INDEX orders_by_customer ON orders (customer_id, created_at, order_id);
CREATE INDEX orders_customer_page ON orders (customer_id, customer_seq);
CREATE INDEX orders_by_status ON orders (status, created_at, order_id);
CREATE INDEX orders_status_page ON orders (status, status_seq);
CREATE INDEX orders_open_page ON orders (open_seq) WHERE open_seq IS NOT NULL;
CREATE INDEX orders_open_by_time ON orders (created_at, order_id) WHERE open_seq IS NOT NULL;
CREATE INDEX orders_outbox ON orders (updated_at, order_id) WHERE version > published_version;

-- The size of every list with positions: 'customer:<id>', 'status:<status>', 'open'.
CREATE TABLE order_list_sizes (
  list text COLLATE "C" PRIMARY KEY,
  size bigint NOT NULL
);
INSERT INTO order_list_sizes (list, size)
  SELECT 'status:' || status, 0 FROM unnest(ARRAY['placed', 'accepted', 'preparing', 'ready', 'completed', 'rejected', 'cancelled']) AS status
  UNION ALL SELECT 'open', 0;

CREATE FUNCTION storefront_order_is_open(status text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT status IN ('placed', 'accepted', 'preparing', 'ready') $$;

-- Takes one place in a list and answers the new size; the row lock stays until commit.
CREATE FUNCTION storefront_grow_list(list_name text, delta bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  grown bigint;
BEGIN
  INSERT INTO order_list_sizes AS s (list, size) VALUES (list_name, delta)
  ON CONFLICT (list) DO UPDATE SET size = s.size + delta
  RETURNING s.size INTO grown;
  RETURN grown;
END $$;

CREATE FUNCTION storefront_orders_enter_lists() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  size bigint;
  newer bigint;
BEGIN
  -- The shared queue's lock first, before any other list or row (a move took it already).
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
    UPDATE orders SET status_seq = status_seq - 1
      WHERE status = OLD.status AND (created_at, order_id) > (OLD.created_at, OLD.order_id) AND order_id <> OLD.order_id;
  END IF;

  size := storefront_grow_list('status:' || NEW.status, 1);
  UPDATE orders SET status_seq = status_seq + 1
    WHERE status = NEW.status AND (created_at, order_id) > (NEW.created_at, NEW.order_id) AND order_id <> NEW.order_id;
  GET DIAGNOSTICS newer = ROW_COUNT;
  NEW.status_seq := size - newer;

  IF TG_OP = 'UPDATE' AND storefront_order_is_open(OLD.status) AND storefront_order_is_open(NEW.status) THEN
    RETURN NEW; -- stays in the open list, at its place
  END IF;
  IF TG_OP = 'UPDATE' AND storefront_order_is_open(OLD.status) THEN
    PERFORM storefront_grow_list('open', -1);
    UPDATE orders SET open_seq = open_seq - 1
      WHERE open_seq IS NOT NULL AND (created_at, order_id) > (OLD.created_at, OLD.order_id) AND order_id <> OLD.order_id;
  END IF;
  IF storefront_order_is_open(NEW.status) THEN
    size := storefront_grow_list('open', 1);
    UPDATE orders SET open_seq = open_seq + 1
      WHERE open_seq IS NOT NULL AND (created_at, order_id) > (NEW.created_at, NEW.order_id) AND order_id <> NEW.order_id;
    GET DIAGNOSTICS newer = ROW_COUNT;
    NEW.open_seq := size - newer;
  ELSE
    NEW.open_seq := NULL;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER orders_enter_lists_on_insert BEFORE INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION storefront_orders_enter_lists();
CREATE TRIGGER orders_move_lists_on_status BEFORE UPDATE OF status ON orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION storefront_orders_enter_lists();

-- A kitchen move: one compare-and-set on the version, after the lock of the shared queue.
CREATE FUNCTION storefront_move_order(move_order_id text, from_version integer, to_status text, moved_at timestamptz, move_reason text, history_entry jsonb)
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
      reason = coalesce(move_reason, reason)
    WHERE order_id = move_order_id AND version = from_version
    RETURNING *;
END $$;

CREATE TABLE idempotency_keys (
  customer_id     text COLLATE "C" NOT NULL,
  key             text COLLATE "C" NOT NULL,
  state           text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  fingerprint     text NOT NULL,
  owner           text NOT NULL,
  order_id        text COLLATE "C" NOT NULL,
  order_created_at timestamptz NOT NULL,
  lock_expires_at timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (customer_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
`,
};
