/**
 * Version 11: a reader numbering a list behind which many orders wait reads its batch, not the
 * backlog (docs/decisions.md, "Who gives the positions").
 *
 * Version 3 placed a batch among the numbered orders after its first one and found those by a range
 * scan from that first key, which reads every order after it, the waiting ones too: each batch read
 * the whole backlog behind it. Orders arrive in the list's order nearly always, so the numbering
 * first reads the list's last numbered order (by position, through the list's page index: one row)
 * and, when the batch's first comes after it, appends the batch after the last place; only a batch
 * holding a late arrival (before a numbered order) takes version 3's way. The functions keep their
 * names and arguments: instances of the release before call them unchanged during a rolling deploy.
 */
import type { Migration } from './migration.js';
import {
  batchInList,
  CUSTOMER_LIST,
  customerNumberingFunction,
  DECLARATIONS,
  KITCHEN_OPEN_LIST,
  KITCHEN_STATUS_LIST,
  kitchenNumberingFunction,
  placeAmongNumbered,
  variablesOf,
  type ListNumbering,
} from './003-positions-by-readers.js';

/**
 * Numbers the batch's orders of one list: appended after the last place when the list's last
 * numbered order comes before the batch's first (or none is numbered), else as version 3 did.
 */
function numberInto(list: ListNumbering): string {
  const { key, seq, inBatch, numbered } = list;
  return `${batchInList(list, true)}
      SELECT ${key.map((column) => `m.${column}`).join(', ')} INTO ${key.map((column) => `last_${column}`).join(', ')}
        FROM orders m WHERE ${numbered('m')} ORDER BY m.${seq} DESC LIMIT 1;
      IF NOT FOUND OR ${variablesOf('last', key)} < ${variablesOf('first', key)} THEN
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
