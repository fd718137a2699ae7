/**
 * The menu document: what a menu file (STOREFRONT_MENU_FILE), `menu import` and `menu export` hold,
 * `{"products": [...]}` in the snake_case of the HTTP API, without ids (the store assigns them).
 * `parseMenuDocument` validates one as a whole; `menuDocumentOf` writes the menu back in the same
 * format, so that an export imported again changes nothing.
 */
import { isTaxRate, TAX_RATE_RULE, type TaxRate } from '../taxes/tax-rate.js';
import { productNameKey, type Product, type ProductDraft } from './product.js';
import { parseOptionGroups } from './option-group-validation.js';
import { isMoney } from '../shared/money.js';
import { checkText } from '../shared/text.js';
import { Issues, isRecord, textField, unknownFields } from '../shared/validation.js';

/** One option of a group, as a menu document writes it. */
export interface MenuDocumentOption {
  readonly name: string;
  /** Minor units added to the price when chosen; default 0. */
  readonly price_delta?: number;
  /** Default true. */
  readonly available?: boolean;
}

/** One option group of a product, as a menu document writes it. */
export interface MenuDocumentOptionGroup {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly options: readonly MenuDocumentOption[];
}

/** One product of a menu document. Optional fields have the defaults `parseMenuDocument` fills in. */
export interface MenuDocumentProduct {
  readonly name: string;
  readonly category: string;
  readonly price: number;
  /** Default ''. */
  readonly description?: string;
  /** Default USD. */
  readonly currency?: string;
  /** Default none. */
  readonly tags?: readonly string[];
  /** Default true. */
  readonly available?: boolean;
  /** Default none. */
  readonly option_groups?: readonly MenuDocumentOptionGroup[];
  /** Basis points, 0 to 10000 (700 is 7 %); default the store's rate. */
  readonly tax_rate?: number;
}

/** A whole menu document. */
export interface MenuDocument {
  readonly products: readonly MenuDocumentProduct[];
}

const CURRENCY = /^[A-Z]{3}$/;
const PRODUCT_FIELDS = new Set(['name', 'description', 'category', 'price', 'currency', 'tags', 'available', 'option_groups', 'tax_rate']);

/** Validates one product of a menu document; `path` prefixes the issue paths. */
export function parseProductDraft(value: unknown, path: string, issues: Issues): ProductDraft | null {
  if (!isRecord(value)) {
    issues.add(path, 'must be an object');
    return null;
  }
  const before = issues.list.length;
  unknownFields(value, PRODUCT_FIELDS, path, issues);
  const name = textField(value, 'name', path, 100, true, issues);
  const description = textField(value, 'description', path, 1000, false, issues);
  const category = textField(value, 'category', path, 50, true, issues);
  if (!isMoney(value['price'])) issues.add(`${path}.price`, 'must be an integer number of minor units (cents), 0 or more');
  const currency = value['currency'] ?? 'USD';
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) issues.add(`${path}.currency`, 'must be an ISO 4217 code such as USD');
  const tags = value['tags'] ?? [];
  if (!Array.isArray(tags) || tags.length > 20 || !tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 40)) {
    issues.add(`${path}.tags`, 'must be a list of at most 20 non-empty strings');
  } else {
    tags.forEach((tag: string, i) => checkText(tag, 'line', `${path}.tags.${i}`, issues));
  }
  const available = value['available'] ?? true;
  if (typeof available !== 'boolean') issues.add(`${path}.available`, 'must be true or false');
  const optionGroups = parseOptionGroups(value['option_groups'], `${path}.option_groups`, issues);
  const taxRate = value['tax_rate'];
  if (taxRate !== undefined && !isTaxRate(taxRate)) {
    issues.add(`${path}.tax_rate`, `${name || 'the product'}: must be a whole number of basis points from ${TAX_RATE_RULE.minimum} to ${TAX_RATE_RULE.maximum} (700 is 7 %)`);
  }
  if (issues.list.length > before) return null;
  return {
    name,
    description,
    category,
    price: value['price'] as number,
    currency: currency as string,
    tags: (tags as string[]).map((t) => t.trim()),
    available: available as boolean,
    optionGroups,
    ...(taxRate === undefined ? {} : { taxRate: taxRate as TaxRate }),
  };
}

/** Validates a whole menu document `{"products": [...]}`; names must be unique, one currency. */
export function parseMenuDocument(value: unknown): ProductDraft[] {
  const issues = new Issues();
  if (!isRecord(value) || !Array.isArray(value['products'])) {
    issues.add('products', 'the menu must be an object with a "products" list');
    issues.throwIfAny('The menu is invalid.');
  }
  const drafts: ProductDraft[] = [];
  const names = new Set<string>();
  (value as { products: unknown[] }).products.forEach((item, i) => {
    const draft = parseProductDraft(item, `products.${i}`, issues);
    if (draft === null) return;
    const key = productNameKey(draft.name);
    if (names.has(key)) issues.add(`products.${i}.name`, `"${draft.name}" appears twice`);
    names.add(key);
    drafts.push(draft);
  });
  const currencies = new Set(drafts.map((d) => d.currency));
  if (currencies.size > 1) issues.add('products', `a menu has one currency, found ${[...currencies].join(', ')}`);
  issues.throwIfAny('The menu is invalid.');
  return drafts;
}

/** The menu as a document `parseMenuDocument` reads back to the same products: every field written out, no ids. */
export function menuDocumentOf(products: readonly Product[]): MenuDocument {
  return {
    products: products.map((p) => ({
      name: p.name,
      description: p.description,
      category: p.category,
      price: p.price,
      currency: p.currency,
      tags: [...p.tags],
      available: p.available,
      ...(p.taxRate === undefined ? {} : { tax_rate: p.taxRate }),
      option_groups: p.optionGroups.map((group) => ({
        name: group.name,
        min: group.min,
        max: group.max,
        options: group.options.map((option) => ({ name: option.name, price_delta: option.priceDelta, available: option.available })),
      })),
    })),
  };
}
