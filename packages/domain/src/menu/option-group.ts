/**
 * Option groups of a dish ("Size": pick one; "Extra toppings": up to 3) and their limits. A group
 * asks for between `min` and `max` of its options (`min` 0: optional); each option adds its
 * `priceDelta` (minor units, never negative) to the dish's price when chosen.
 */
import { MONEY_RULE } from '../shared/money.js';

/** One choice within a group. `available` false: listed, but refused in an order (86'd). */
export interface Option {
  readonly optionId: string;
  readonly name: string;
  readonly priceDelta: number;
  readonly available: boolean;
}

/** A set of options of one product, of which an order line picks `min` to `max`. */
export interface OptionGroup {
  readonly groupId: string;
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly options: readonly Option[];
}

/** An option as written in a menu file or an import: the id is assigned by the store. */
export type OptionDraft = Omit<Option, 'optionId'>;

/** A group as written in a menu file or an import: its id and its options' ids are assigned by the store. */
export interface OptionGroupDraft {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly options: readonly OptionDraft[];
}

/**
 * Bounds of a product's option groups. They keep a menu document, a product's JSON and the work
 * of checking one order line small: at most 1,000 options per product.
 */
export const OPTION_LIMITS = {
  maxGroups: 20,
  maxOptionsPerGroup: 50,
  maxNameLength: 100,
  /** The same bound as a product's price. */
  maxPriceDelta: MONEY_RULE.maximum,
} as const;
