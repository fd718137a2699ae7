/**
 * Version 8: taxes (DECISIONS "Taxes", issue 34 item 2).
 *
 * Orders gain `prices_include_tax`, `taxes` (jsonb: [{rate, taxable, tax}], read and written only
 * with the order, like its lines) and `tax_total`; lines gain `taxRate` inside the `items` jsonb,
 * read as 0 where absent. Every new column has a constant default, so adding it rewrites no row:
 * orders stored before read as untaxed (false, [], 0) at once. Products gain `tax_rate` (basis
 * points), NULL for a product that takes the store's rate.
 */
import type { Migration } from './migration.js';

export const taxes: Migration = {
  name: 'taxes',
  sql: `
ALTER TABLE orders
  ADD COLUMN prices_include_tax boolean NOT NULL DEFAULT false,
  ADD COLUMN taxes jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN tax_total bigint NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN tax_rate integer;
`,
};
