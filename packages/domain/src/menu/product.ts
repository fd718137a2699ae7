import type { TaxRate } from '../taxes/tax-rate.js';
import { validationFailed } from '../shared/errors.js';
import type { OptionGroup, OptionGroupDraft } from './option-group.js';

/**
 * A dish on the menu. Prices are integers in minor units (cents) of `currency`. `optionGroups` is
 * always present (empty for a dish without options).
 */
export interface Product {
  readonly productId: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly price: number;
  readonly currency: string;
  readonly tags: readonly string[];
  readonly available: boolean;
  readonly optionGroups: readonly OptionGroup[];
  /** Basis points (TAX_RATE_RULE); absent: the store's rate. Options are taxed at their product's. */
  readonly taxRate?: TaxRate;
}

/** A product as written in a menu file or an import: its id and its groups' and options' ids are assigned by the store. */
export interface ProductDraft extends Omit<Product, 'productId' | 'optionGroups'> {
  readonly optionGroups: readonly OptionGroupDraft[];
}

/** The menu's stable order: category, then name (code-point order, so every store agrees). */
export function compareProducts(a: Product, b: Product): number {
  if (a.category !== b.category) return a.category < b.category ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0;
}

/** Names are unique on a menu regardless of case: the key every store compares them by. */
export function productNameKey(name: string): string {
  return name.toLowerCase();
}

/**
 * The name keys of an import's drafts, in order. Two drafts of one name (any case) are refused,
 * `validation_failed` on the second's `{i}.name`, before a store writes anything.
 */
export function productNameKeys(drafts: readonly ProductDraft[]): string[] {
  const seen = new Set<string>();
  return drafts.map((draft, i) => {
    const key = productNameKey(draft.name);
    if (seen.has(key)) throw validationFailed([{ path: `${i}.name`, message: `"${draft.name}" appears twice` }]);
    seen.add(key);
    return key;
  });
}
