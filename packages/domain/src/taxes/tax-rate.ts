/**
 * A tax rate in basis points: a whole number from 0 to 10000 (`700` is 7 %). Rates are integers so
 * that no amount of money ever passes through a floating-point number on its way to a receipt.
 */
import { isIntegerIn } from '../shared/validation.js';

export const TAX_RATE_RULE = { minimum: 0, maximum: 10_000 } as const;

/** One hundred percent, in basis points. */
export const BASIS_POINTS = 10_000;

declare const taxRateBrand: unique symbol;
/** A rate checked by `isTaxRate` or `taxRateOf`. */
export type TaxRate = number & { readonly [taxRateBrand]: true };

export function isTaxRate(value: unknown): value is TaxRate {
  return isIntegerIn(value, TAX_RATE_RULE.minimum, TAX_RATE_RULE.maximum);
}

/** The rate, or a RangeError naming what is wrong: for configuration and menu files, checked once. */
export function taxRateOf(value: unknown): TaxRate {
  if (!isTaxRate(value)) {
    throw new RangeError(`must be a whole number of basis points from ${TAX_RATE_RULE.minimum} to ${TAX_RATE_RULE.maximum} (700 is 7 %)`);
  }
  return value;
}
