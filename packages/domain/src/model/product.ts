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
