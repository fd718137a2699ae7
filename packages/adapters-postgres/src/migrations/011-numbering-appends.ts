/**
 * Version 11: a reader numbering a list behind which many orders wait reads its batch, not the
 * backlog (docs/decisions.md, "Who gives the positions").
 *
 * Version 3's numbering placed a batch among the numbered orders after its first one, and found
 * those by a range scan from that first key: every order after it, numbered or still waiting, was
 * read to find the numbered ones. Behind a batch of 500 wait all the list's other unnumbered orders,
 * so each batch read the whole backlog (12,000 rows for a batch of 100 before a backlog of 4,000 on
 * a customer's list, 34,000 on the kitchen's), and a read of a list nobody had read for a while
 * took seconds (a customer with 26,000 orders placed without a read: 95 ms a batch of 500).
 *
 * Orders arrive in the list's order nearly always. So the numbering first reads the list's last
 * numbered order (by position, through the list's page index: one row) and, when the batch's first
 * comes after it, appends the batch after the last place; only an order that arrived late (before
 * a numbered one) takes version 3's way. The functions keep their names and arguments: instances
 * of the release before call them unchanged during a rolling deploy.
 */
import type { Migration } from './migration.js';
import {
  CUSTOMER_LIST,
  customerNumberingFunction,
  DECLARATIONS,
  firstOf,
  KITCHEN_OPEN_LIST,
  KITCHEN_STATUS_LIST,
  kitchenNumberingFunction,
  placeAmongNumbered,
  type ListNumbering,
} from './003-positions-by-readers.js';

const lastOf = (key: readonly string[]) => `(${key.map((column) => `last_${column}`).join(', ')})`;

/**
 * The batch's count in the list (`added`) and, when it has some, its first key (`first_…`). The
 * batch is read by its ids first (OFFSET 0 keeps the planner from walking the list's index in the
 * key's order to the first of them: past every numbered order before it, 20,000 in a test).
 */
function batchInList({ inBatch, key }: ListNumbering): string {
  return `
    SELECT count(*) INTO added FROM orders m WHERE m.order_id = ANY(ids) AND ${inBatch('m')};
    IF added > 0 THEN
      SELECT ${key.join(', ')} INTO ${key.map((column) => `first_${column}`).join(', ')}
        FROM (SELECT ${key.map((column) => `m.${column}`).join(', ')} FROM orders m WHERE m.order_id = ANY(ids) AND ${inBatch('m')} OFFSET 0) batch
       ORDER BY ${key.join(', ')} LIMIT 1;`;
}

/**
 * Numbers the batch's orders of one list: appended after the last place when the list's last
 * numbered order comes before the batch's first (or none is numbered), else as version 3 did.
 */
function numberInto(list: ListNumbering): string {
  const { key, seq, inBatch, numbered } = list;
  return `${batchInList(list)}
      SELECT ${key.map((column) => `m.${column}`).join(', ')} INTO ${key.map((column) => `last_${column}`).join(', ')}
        FROM orders m WHERE ${numbered('m')} ORDER BY m.${seq} DESC LIMIT 1;
      IF NOT FOUND OR ${lastOf(key)} < ${firstOf(key)} THEN
        base := storefront_grow_list(${list.list}, added) - added;
        UPDATE orders o SET ${seq} = base + u.place
          FROM (SELECT m.order_id, row_number() OVER (ORDER BY ${key.map((column) => `m.${column}`).join(', ')}) AS place
                  FROM orders m WHERE m.order_id = ANY(ids) AND ${inBatch('m')}) u
         WHERE o.order_id = u.order_id;
      ELSE${placeAmongNumbered(list)}
      END IF;
    END IF;`;
}

const kitchenStatus = numberInto(KITCHEN_STATUS_LIST);
const kitchenOpen = numberInto(KITCHEN_OPEN_LIST);
const customerList = numberInto(CUSTOMER_LIST);

/** The last numbered order's key, beside version 3's first. */
const LAST_DECLARATIONS = `
  last_promised_at timestamptz;
  last_created_at timestamptz;
  last_order_id text COLLATE "C";`;

export const numberingAppends: Migration = {
  name: 'list numbering appends',
  sql: `
${kitchenNumberingFunction('CREATE OR REPLACE', DECLARATIONS + LAST_DECLARATIONS, kitchenStatus, kitchenOpen)}

${customerNumberingFunction('CREATE OR REPLACE', DECLARATIONS + LAST_DECLARATIONS, customerList)}
`,
};
