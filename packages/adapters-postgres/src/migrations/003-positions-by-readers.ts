/**
 * Version 3: list positions are given by the readers of a list, not at insert (docs/decisions.md,
 * "Orders in PostgreSQL").
 *
 * Until version 2 every insert took the open queue's size row (and its status's and its
 * customer's) and held them until commit, so that placements ran one at a time, each waiting for
 * the one before it to reach the disk. Now an order is stored without positions (customer_seq and
 * status_seq NULL: "not numbered yet") and takes no shared lock. Whoever reads a list first numbers
 * its waiting orders, a bounded batch at a time, under that list's lock: the kitchen's lists
 * (each status's and the open queue) under the open queue's size row, which kitchen moves take as
 * well; a customer's list under its own size row. The rules are those of the triggers before:
 * position k is the k-th order by the list's key, an order numbered before a numbered one shifts it
 * (normally none: orders arrive in time order), and the list's size counts the numbered orders.
 *
 * Orders stored before keep their positions; nothing is renumbered.
 */
import type { Migration } from './migration.js';

/** The kitchen's order, as in version 2. */
const KITCHEN_KEY = ['promised_at', 'created_at', 'order_id'] as const;
/** A customer's order. */
const CUSTOMER_KEY = ['created_at', 'order_id'] as const;

export interface ListNumbering {
  /** The list's row in order_list_sizes (an SQL expression). */
  readonly list: string;
  /** The position column. */
  readonly seq: string;
  /** Whether an order of the batch (alias `m`) belongs to the list. */
  readonly inBatch: (m: string) => string;
  /** Whether an order (alias `m`) is numbered in the list already. */
  readonly numbered: (m: string) => string;
  readonly key: readonly string[];
}

const keyOf = (key: readonly string[], row: string) => `(${key.map((column) => `${row}.${column}`).join(', ')})`;
/** The key's plpgsql variables (`first_…`, `last_…`) as a row value. */
export const variablesOf = (prefix: string, key: readonly string[]) => `(${key.map((column) => `${prefix}_${column}`).join(', ')})`;
const firstOf = (key: readonly string[]) => variablesOf('first', key);

/**
 * The batch's count in the list (`added`) and, when it has some, its first key (`first_…`).
 * `fenced`: the batch is read by its ids behind OFFSET 0 before it is ordered, so that the planner
 * cannot walk the list's key index (past every numbered order) to the first of the ids.
 */
export function batchInList({ inBatch, key }: ListNumbering, fenced = false): string {
  const batch = `FROM orders m WHERE m.order_id = ANY(ids) AND ${inBatch('m')}`;
  const firstFrom = fenced ? `FROM (SELECT ${key.map((column) => `m.${column}`).join(', ')} ${batch} OFFSET 0) batch\n      ` : batch;
  return `
    SELECT count(*) INTO added ${batch};
    IF added > 0 THEN
      SELECT ${key.join(', ')} INTO ${key.map((column) => `first_${column}`).join(', ')}
        ${firstFrom} ORDER BY ${key.join(', ')} LIMIT 1;`;
}

/**
 * The batch and the numbered orders after its first take the places from the one before that
 * first, in the list's order (inside batchInList's IF).
 */
export function placeAmongNumbered({ list, seq, inBatch, numbered, key }: ListNumbering): string {
  const after = (m: string) => `${numbered(m)} AND NOT (${m}.order_id = ANY(ids)) AND ${keyOf(key, m)} > ${firstOf(key)}`;
  return `
      base := storefront_grow_list(${list}, added) - added - (SELECT count(*) FROM orders m WHERE ${after('m')});
      UPDATE orders o SET ${seq} = base + u.place
        FROM (SELECT m.order_id, row_number() OVER (ORDER BY ${key.map((column) => `m.${column}`).join(', ')}) AS place
                FROM orders m WHERE (m.order_id = ANY(ids) AND ${inBatch('m')}) OR (${after('m')})) u
       WHERE o.order_id = u.order_id AND o.${seq} IS DISTINCT FROM base + u.place;`;
}

/**
 * Numbers the orders of the batch (`ids`) that belong to one list: they and the numbered orders
 * after the first of them take the places from the one before that first, in the list's order.
 */
function numberInto(numbering: ListNumbering): string {
  return `${batchInList(numbering)}${placeAmongNumbered(numbering)}
    END IF;`;
}

/** A numbering function's variables: the batch, its count in a list, the place before it, its first key. */
export const DECLARATIONS = `
  ids text[];
  added bigint;
  base bigint;
  first_promised_at timestamptz;
  first_created_at timestamptz;
  first_order_id text COLLATE "C";`;

/**
 * Takes the batch (`pending`: the waiting orders in the list's order, at most `batch`) once the
 * list's lock is held, and row-locks it in order_id order, the one order every numbering locks
 * rows in (a customer's and the kitchen's numbering may meet on an order).
 */
export const takeBatch = (pending: string) => `
  SELECT array_agg(order_id ORDER BY order_id) INTO ids FROM (${pending} LIMIT batch) waiting;
  IF ids IS NULL THEN RETURN 0; END IF;
  PERFORM 1 FROM orders WHERE order_id = ANY(ids) ORDER BY order_id FOR NO KEY UPDATE;`;

export const KITCHEN_STATUS_LIST: ListNumbering = {
  list: "'status:' || list_status",
  seq: 'status_seq',
  inBatch: (m) => `${m}.status = list_status`,
  numbered: (m) => `${m}.status = list_status AND ${m}.status_seq IS NOT NULL`,
  key: KITCHEN_KEY,
};
const kitchenStatus = numberInto(KITCHEN_STATUS_LIST);

export const KITCHEN_OPEN_LIST: ListNumbering = {
  list: "'open'",
  seq: 'open_seq',
  inBatch: (m) => `storefront_order_is_open(${m}.status)`,
  numbered: (m) => `${m}.open_seq IS NOT NULL`,
  key: KITCHEN_KEY,
};
const kitchenOpen = numberInto(KITCHEN_OPEN_LIST);

export const CUSTOMER_LIST: ListNumbering = {
  list: "'customer:' || list_customer",
  seq: 'customer_seq',
  inBatch: () => 'true',
  numbered: (m) => `${m}.customer_id = list_customer AND ${m}.customer_seq IS NOT NULL`,
  key: CUSTOMER_KEY,
};
const customerList = numberInto(CUSTOMER_LIST);

/**
 * The kitchen's numbering function around its two lists' numberings: each status's (`status`, run
 * for each status in the batch as `list_status`) and the open queue's (`open`).
 */
export function kitchenNumberingFunction(create: 'CREATE' | 'CREATE OR REPLACE', declarations: string, status: string, open: string): string {
  return `${create} FUNCTION storefront_number_kitchen(batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE ${declarations}
  list_status text COLLATE "C";
BEGIN
  IF NOT EXISTS (SELECT 1 FROM orders WHERE status_seq IS NULL) THEN RETURN 0; END IF;
  PERFORM storefront_grow_list('open', 0);
  ${takeBatch('SELECT order_id FROM orders WHERE status_seq IS NULL ORDER BY promised_at, created_at, order_id')}
  FOR list_status IN SELECT DISTINCT status FROM orders WHERE order_id = ANY(ids) LOOP
    ${status}
  END LOOP;
  ${open}
  RETURN cardinality(ids);
END $$;`;
}

/** A customer's numbering function around its list's numbering (`customer`). */
export function customerNumberingFunction(create: 'CREATE' | 'CREATE OR REPLACE', declarations: string, customer: string): string {
  return `${create} FUNCTION storefront_number_customer(list_customer text, batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE ${declarations}
BEGIN
  IF NOT EXISTS (SELECT 1 FROM orders WHERE customer_id = list_customer AND customer_seq IS NULL) THEN RETURN 0; END IF;
  PERFORM storefront_grow_list('customer:' || list_customer, 0);
  ${takeBatch('SELECT order_id FROM orders WHERE customer_id = list_customer AND customer_seq IS NULL ORDER BY created_at, order_id')}
  ${customer}
  RETURN cardinality(ids);
END $$;`;
}

/** An order's place in the kitchen's lists, as the move trigger compares it (version 2's key). */
const listKey = (row: string) => keyOf(KITCHEN_KEY, row);

export const positionsByReaders: Migration = {
  name: 'list positions given by readers',
  sql: `
ALTER TABLE orders
  ALTER COLUMN customer_seq DROP NOT NULL, ALTER COLUMN customer_seq DROP DEFAULT,
  ALTER COLUMN status_seq DROP NOT NULL, ALTER COLUMN status_seq DROP DEFAULT;
-- The orders waiting for a position, which readers look for first.
CREATE INDEX orders_kitchen_unnumbered ON orders (promised_at, created_at, order_id) WHERE status_seq IS NULL;
CREATE INDEX orders_customer_unnumbered ON orders (customer_id, created_at, order_id) WHERE customer_seq IS NULL;

DROP TRIGGER orders_enter_lists_on_insert ON orders;
DROP TRIGGER orders_move_lists_on_status ON orders;
DROP FUNCTION storefront_orders_enter_lists();

-- A kitchen move (storefront_move_order holds the kitchen's lock): a numbered order leaves its
-- status's list (and the open queue if it closes) and enters the new status's; an order not
-- numbered yet is numbered by the next reader in the lists of the status it has then.
CREATE FUNCTION storefront_order_moves_lists() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  size bigint;
  newer bigint;
BEGIN
  PERFORM storefront_grow_list('open', 0);
  IF OLD.status_seq IS NULL THEN
    NEW.status_seq := NULL;
    NEW.open_seq := NULL;
    RETURN NEW;
  END IF;
  PERFORM storefront_grow_list('status:' || OLD.status, -1);
  UPDATE orders o SET status_seq = status_seq - 1
    WHERE o.status = OLD.status AND o.status_seq IS NOT NULL AND ${listKey('o')} > ${listKey('OLD')} AND o.order_id <> OLD.order_id;

  size := storefront_grow_list('status:' || NEW.status, 1);
  UPDATE orders o SET status_seq = status_seq + 1
    WHERE o.status = NEW.status AND o.status_seq IS NOT NULL AND ${listKey('o')} > ${listKey('NEW')} AND o.order_id <> NEW.order_id;
  GET DIAGNOSTICS newer = ROW_COUNT;
  NEW.status_seq := size - newer;

  IF storefront_order_is_open(OLD.status) AND storefront_order_is_open(NEW.status) THEN
    RETURN NEW;
  END IF;
  IF storefront_order_is_open(OLD.status) THEN
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
CREATE TRIGGER orders_move_lists_on_status BEFORE UPDATE OF status ON orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION storefront_order_moves_lists();

-- Numbers up to \`batch\` of the orders waiting in the kitchen's lists (each status's and the open
-- queue), oldest first, under the kitchen's lock; answers how many. Nothing waiting: no lock.
${kitchenNumberingFunction('CREATE', DECLARATIONS, kitchenStatus, kitchenOpen)}

-- The same for one customer's list, under that list's lock.
${customerNumberingFunction('CREATE', DECLARATIONS, customerList)}
`,
};
