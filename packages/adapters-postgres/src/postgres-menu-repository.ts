/**
 * The menu in PostgreSQL: one row per product, matched on upsert by its lower-cased name
 * (`name_key`, unique). A batch is one transaction with the revision bump, so a reader never sees a
 * changed menu under an old revision. An upsert sets `available` only when it creates the product:
 * the kitchen owns availability (DECISIONS, "Restarts never undo the kitchen's changes").
 */
import type { MenuRepository, Product } from '@storefront/domain';
import type { ProductDraft } from '@storefront/domain/adapter-kit';
import { assignOptionIds, newId, productNameKey, productNameKeys } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { PRODUCT_COLUMNS, productInput, toProduct, type ProductRow } from './product-mapper.js';
import { databaseOperation } from './database-errors.js';
import { inTransaction } from './transaction.js';

/** The columns the file owns: an upsert of an existing product writes these only. */
const FILE_COLUMNS = ['name', 'description', 'category', 'price', 'currency', 'tags', 'option_groups', 'tax_rate'] as const;

const UPSERT = `
INSERT INTO products (product_id, name_key, ${FILE_COLUMNS.join(', ')}, available)
SELECT product_id, name_key, ${FILE_COLUMNS.join(', ')}, available
  FROM jsonb_to_recordset($1::jsonb) AS input(product_id text, name_key text, name text, description text, category text,
       price bigint, currency text, tags text[], available boolean, option_groups jsonb, tax_rate integer)
 ORDER BY name_key
ON CONFLICT (name_key) DO UPDATE SET ${FILE_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
 WHERE (${FILE_COLUMNS.map((column) => `products.${column}`).join(', ')}) IS DISTINCT FROM (${FILE_COLUMNS.map((column) => `EXCLUDED.${column}`).join(', ')})
RETURNING product_id`;

const BUMP_REVISION = 'UPDATE menu_revision SET version = version + 1';

export class PostgresMenuRepository implements MenuRepository {
  constructor(private readonly pool: pg.Pool) {}

  list(): Promise<readonly Product[]> {
    return databaseOperation(async () => {
      // Columns in "C" collation: code-point order, the order `compareProducts` documents.
      const result = await this.pool.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products ORDER BY category, name, product_id`);
      return result.rows.map(toProduct);
    });
  }

  async findByIds(productIds: readonly string[]): Promise<readonly Product[]> {
    if (productIds.length === 0) return [];
    return databaseOperation(async () => {
      const result = await this.pool.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE product_id = ANY($1::text[])`, [
        [...new Set(productIds)],
      ]);
      return result.rows.map(toProduct);
    });
  }

  async upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]> {
    // Checked before anything is written: a bad batch writes nothing.
    const keys = productNameKeys(drafts);
    if (drafts.length === 0) return [];
    const inputs = await Promise.all(
      drafts.map(async (draft, i) => productInput(newId('prd'), draft, await assignOptionIds(draft.name, draft.optionGroups, `${i}.optionGroups`))),
    );
    return databaseOperation(() =>
      inTransaction(this.pool, async (client) => {
        const written = await client.query(UPSERT, [JSON.stringify(inputs)]);
        if ((written.rowCount ?? 0) > 0) await client.query(BUMP_REVISION);
        const stored = await client.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS}, name_key FROM products WHERE name_key = ANY($1::text[])`, [keys]);
        const byKey = new Map(stored.rows.map((row) => [productNameKey(row.name), toProduct(row)]));
        return drafts.map((draft, i) => {
          const product = byKey.get(keys[i]!);
          if (product === undefined) throw new Error(`the product "${draft.name}" was not found after its upsert`);
          return product;
        });
      }),
    );
  }

  /** One statement: the product changes, and the revision with it, only when the availability differs. */
  setAvailability(productId: string, available: boolean): Promise<Product | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<ProductRow>(
        `WITH changed AS (
           UPDATE products SET available = $2 WHERE product_id = $1 AND available <> $2 RETURNING ${PRODUCT_COLUMNS}
         ), bumped AS (
           UPDATE menu_revision SET version = version + 1 WHERE EXISTS (SELECT 1 FROM changed)
         )
         SELECT ${PRODUCT_COLUMNS} FROM changed
         UNION ALL
         SELECT ${PRODUCT_COLUMNS} FROM products WHERE product_id = $1 AND NOT EXISTS (SELECT 1 FROM changed)`,
        [productId, available],
      );
      const row = result.rows[0];
      return row === undefined ? null : toProduct({ ...row, available });
    });
  }

  revision(): Promise<string> {
    return databaseOperation(async () => {
      const result = await this.pool.query<{ revision: string }>("SELECT epoch || '.' || version AS revision FROM menu_revision");
      return result.rows[0]?.revision ?? 'empty';
    });
  }
}
