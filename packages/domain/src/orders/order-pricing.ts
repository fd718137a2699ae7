/**
 * The request half of placing an order: the client's lines checked against ORDER_LIMITS, then
 * priced from the menu (never from the client): `unitPrice` = the product's price + the chosen
 * options' deltas, `lineTotal` = `unitPrice × quantity`.
 */
import type { TaxRate } from '../taxes/tax-rate.js';
import { DomainError } from '../shared/errors.js';
import type { Order, OrderLine, OrderRequestLine } from './order.js';
import { isIdText, isQuantity, ORDER_LIMITS } from './order.js';
import type { Product } from '../menu/product.js';
import { checkText } from '../shared/text.js';
import { Issues, isRecord } from '../shared/validation.js';
import { chooseOptions } from './option-choice.js';

/** A request line as checked: `options` always present (empty when none), without duplicates. */
export interface ParsedLine {
  readonly productId: string;
  readonly quantity: number;
  readonly options: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

export function parseLines(items: readonly OrderRequestLine[]): ParsedLine[] {
  const issues = new Issues();
  if (!Array.isArray(items) || items.length < ORDER_LIMITS.minLines || items.length > ORDER_LIMITS.maxLines) {
    issues.add('items', `must be a list of ${ORDER_LIMITS.minLines} to ${ORDER_LIMITS.maxLines} lines`);
    issues.throwIfAny();
  }
  items.forEach((item: unknown, i) => {
    if (!isRecord(item)) return issues.add(`items.${i}`, 'must be an object with a product id and a quantity');
    const { productId, quantity, options } = item;
    if (!isIdText(productId)) {
      issues.add(`items.${i}.productId`, `must be a product id string of 1 to ${ORDER_LIMITS.maxIdLength} characters`);
    } else {
      checkText(productId, 'storable', `items.${i}.productId`, issues);
    }
    if (!isQuantity(quantity)) {
      issues.add(`items.${i}.quantity`, `must be an integer from ${ORDER_LIMITS.minQuantity} to ${ORDER_LIMITS.maxQuantity}`);
    }
    if (options !== undefined) checkOptionIds(options, `items.${i}.options`, issues);
  });
  issues.throwIfAny();
  return items.map(({ productId, quantity, options }) => ({ productId, quantity, options: options === undefined || options.length === 0 ? NONE : [...options] }));
}

/**
 * A list of option ids, each at most once. A repeated id is refused here, as a malformed request
 * (400), not priced twice: "extra cheese twice" is an option of its own on a menu.
 */
function checkOptionIds(options: unknown, path: string, issues: Issues): void {
  const max = ORDER_LIMITS.maxOptionsPerLine;
  if (!Array.isArray(options) || options.length > max || !options.every(isIdText)) {
    issues.add(path, `must be a list of at most ${max} option ids (strings of 1 to ${ORDER_LIMITS.maxIdLength} characters)`);
    return;
  }
  if (!(options as string[]).every((id, j) => checkText(id, 'storable', `${path}.${j}`, issues))) return;
  const seen = new Set<string>();
  for (const id of options as string[]) {
    if (seen.has(id)) issues.add(path, `names ${id} more than once: each option at most once`);
    seen.add(id);
  }
}

/** What the menu makes of the lines: the priced items, their sum and the menu's currency. */
export type PricedOrder = Pick<Order, 'items' | 'amount' | 'currency'>;

/** The rate of a product's lines: its own, else the store's. */
export type RateOf = (product: Product) => TaxRate;

const untaxed: RateOf = (product) => product.taxRate ?? (0 as TaxRate);

/**
 * Prices `lines` (at least one) from the products in `byId`. Refuses, before any pricing, a product
 * that is not there (`unknown_product`) or not available (`product_unavailable`), then options that
 * do not fit (`invalid_options`, one issue per group at fault, over every line).
 */
export function priceOrder(lines: readonly ParsedLine[], byId: ReadonlyMap<string, Product>, rateOf: RateOf = untaxed): PricedOrder {
  const items = priceLines(lines, byId, rateOf);
  return {
    items,
    amount: items.reduce((sum, line) => sum + line.lineTotal, 0),
    currency: byId.get(items[0]!.productId)!.currency,
  };
}

function priceLines(lines: readonly ParsedLine[], byId: ReadonlyMap<string, Product>, rateOf: RateOf): OrderLine[] {
  const unknown = new Issues();
  const unavailable = new Issues();
  lines.forEach((line, i) => {
    const product = byId.get(line.productId);
    if (product === undefined) unknown.add(`items.${i}.productId`, `no product ${line.productId} on the menu`);
    else if (!product.available) unavailable.add(`items.${i}.productId`, `${product.name} is not available right now`);
  });
  if (unknown.list.length > 0) {
    throw new DomainError('unknown_product', 'The order names a product that is not on the menu.', { details: unknown.list });
  }
  if (unavailable.list.length > 0) {
    throw new DomainError('product_unavailable', 'The order names a product that is not available.', { details: unavailable.list });
  }
  const choices = lines.map((line, i) => chooseOptions(byId.get(line.productId)!, line.options, `items.${i}.options`));
  const misfits = choices.flatMap((choice) => choice.issues);
  if (misfits.length > 0) {
    throw new DomainError('invalid_options', 'The options chosen on an order line do not fit the product.', { details: misfits });
  }
  return lines.map((line, i) => {
    const product = byId.get(line.productId)!;
    const choice = choices[i]!;
    const unitPrice = product.price + choice.priceDelta;
    return {
      productId: product.productId,
      name: product.name,
      quantity: line.quantity,
      unitPrice,
      lineTotal: unitPrice * line.quantity,
      options: choice.options,
      taxRate: rateOf(product),
    };
  });
}

/**
 * What the Idempotency-Key fingerprint hashes for a line: its options as a set (sorted), and a
 * line without options exactly as before options existed, so keys stored then still match.
 */
export function fingerprintOf(line: ParsedLine): unknown[] {
  return line.options.length === 0 ? [line.productId, line.quantity] : [line.productId, line.quantity, [...line.options].sort()];
}
