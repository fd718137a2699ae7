/**
 * Money: an amount in minor units (cents) of the menu's currency: a whole number, never negative
 * (the document's `Money` schema: `minimum: 0`), and below a bound no menu reaches, so that a sum of
 * 50 lines of 99 stays a safe integer.
 */
import { isIntegerIn } from './validation.js';

export const MONEY_RULE = { minimum: 0, maximum: 100_000_000 } as const;

/** Whether `value` is an amount of money of at most `max` minor units. */
export function isMoney(value: unknown, max: number = MONEY_RULE.maximum): value is number {
  return isIntegerIn(value, MONEY_RULE.minimum, max);
}
