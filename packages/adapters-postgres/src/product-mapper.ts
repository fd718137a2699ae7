/**
 * Products as rows: the option groups (with their ids, assigned by `assignOptionIds` before the
 * write) as jsonb. Products handed out are frozen, as the memory store's are, because readers cache
 * the menu by revision and must not be able to change each other's copy.
 */
import type { OptionGroup, Product } from '@storefront/domain';
import type { Option, ProductDraft } from '@storefront/domain/adapter-kit';
import { productNameKey } from '@storefront/domain/adapter-kit';

export interface ProductRow {
  product_id: string;
  name: string;
  description: string;
  category: string;
  price: string | number;
  currency: string;
  tags: string[];
  available: boolean;
  option_groups: OptionGroup[];
  /** Null: the store's rate. */
  tax_rate: number | null;
}

export const PRODUCT_COLUMNS = 'product_id, name, description, category, price, currency, tags, available, option_groups, tax_rate';


/** A draft as one element of the upsert's jsonb input: only the known fields. */
export function productInput(productId: string, draft: ProductDraft, optionGroups: readonly OptionGroup[]) {
  return {
    product_id: productId,
    name_key: productNameKey(draft.name),
    name: draft.name,
    description: draft.description,
    category: draft.category,
    price: draft.price,
    currency: draft.currency,
    tags: [...draft.tags],
    available: draft.available,
    option_groups: optionGroups.map(copyGroup),
    tax_rate: (draft.taxRate ?? null) as number | null,
  };
}

export function toProduct(row: ProductRow): Product {
  return Object.freeze({
    productId: row.product_id,
    name: row.name,
    description: row.description,
    category: row.category,
    price: Number(row.price),
    currency: row.currency,
    tags: Object.freeze([...row.tags]),
    available: row.available,
    optionGroups: Object.freeze(row.option_groups.map((group) => Object.freeze(copyGroup(group)))),
    ...(row.tax_rate === null ? {} : { taxRate: row.tax_rate as NonNullable<Product['taxRate']> }),
  });
}

function copyGroup(group: OptionGroup): OptionGroup {
  return {
    groupId: group.groupId,
    name: group.name,
    min: group.min,
    max: group.max,
    options: Object.freeze(group.options.map((option): Option => Object.freeze({ ...copyOption(option) }))),
  };
}

function copyOption(option: Option): Option {
  return { optionId: option.optionId, name: option.name, priceDelta: option.priceDelta, available: option.available };
}
