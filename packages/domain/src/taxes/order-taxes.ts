/**
 * Taxes of an order, per rate over the whole order (DECISIONS "Taxes"): for each rate, `taxable` is
 * the sum of the amounts at that rate; tax added on top is round(taxable × rate / 10000), tax
 * included is taxable − round(taxable × 10000 / (10000 + rate)); `round` is half up.
 * Multiplications run in BigInt, so the result is exact for any amount an order can hold.
 */
import { BASIS_POINTS, type TaxRate } from './tax-rate.js';

/** An amount of money (minor units) taxed at one rate: a line total, or the delivery fee. */
export interface TaxableAmount {
  readonly rate: TaxRate;
  readonly amount: number;
}

/** One line of a receipt's tax table. */
export interface TaxLine {
  readonly rate: number;
  readonly taxable: number;
  readonly tax: number;
}

export interface OrderTaxes {
  /** One entry per rate with a taxable amount above 0, ascending by rate. */
  readonly taxes: readonly TaxLine[];
  readonly taxTotal: number;
}

/** `numerator / denominator` rounded half up, for a numerator ≥ 0 and a denominator > 0. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** The tax in `taxable` minor units at `rate`, added on top or included in it. */
export function taxAt(taxable: number, rate: TaxRate, pricesIncludeTax: boolean): number {
  const amount = BigInt(taxable);
  const bp = BigInt(BASIS_POINTS);
  if (pricesIncludeTax) return Number(amount - roundHalfUp(amount * bp, bp + BigInt(rate)));
  return Number(roundHalfUp(amount * BigInt(rate), bp));
}

/** The order's tax table and total from its taxable amounts (a tip is not one: it is never taxed). */
export function orderTaxes(amounts: Iterable<TaxableAmount>, pricesIncludeTax: boolean): OrderTaxes {
  const byRate = new Map<number, number>();
  for (const { rate, amount } of amounts) byRate.set(rate, (byRate.get(rate) ?? 0) + amount);
  const taxes: TaxLine[] = [];
  let taxTotal = 0;
  // Most orders have one rate: sorting even one element allocates the sort's working state.
  const rates = byRate.size === 1 ? byRate.keys() : [...byRate.keys()].sort((a, b) => a - b);
  for (const rate of rates) {
    const taxable = byRate.get(rate)!;
    if (taxable <= 0) continue;
    const tax = taxAt(taxable, rate as TaxRate, pricesIncludeTax);
    taxes.push({ rate, taxable, tax });
    taxTotal += tax;
  }
  return { taxes, taxTotal };
}

/** What the customer pays: the tip is never taxed, and the tax is on top only when prices exclude it. */
export function amountToPay(parts: { subtotal: number; deliveryFee: number; tip: number; taxTotal: number; pricesIncludeTax: boolean }): number {
  return parts.subtotal + parts.deliveryFee + parts.tip + (parts.pricesIncludeTax ? 0 : parts.taxTotal);
}
