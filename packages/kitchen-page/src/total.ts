/**
 * What a card says about money: the total as the customer pays it (`amount`: with the tax when it is
 * added on top), and the tax in it. Amounts are minor units and stay integers: the decimal point is
 * placed by the currency's digits (Intl), never by dividing.
 */
import { type KitchenOrder } from './board.js';

/** "Total USD 23.80 · tax 1.56 incl."; null for an order read without its amount. */
export function totalText(order: KitchenOrder): string | null {
  const { amount, currency } = order;
  if (amount === undefined || currency === undefined) return null;
  const total = `Total ${currency} ${money(amount, currency)}`;
  const tax = order.tax_total ?? 0;
  // Orders placed before taxes (no tax lines) say nothing about tax.
  if ((order.taxes ?? []).length === 0) return total;
  return `${total} · tax ${money(tax, currency)} ${order.prices_include_tax === true ? 'incl.' : 'added'}`;
}

/** 2380 USD → "23.80"; 500 JPY → "500". */
export function money(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${minor < 0 ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}
