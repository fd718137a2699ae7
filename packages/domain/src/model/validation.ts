/** Small validators shared by use cases; each records a FieldIssue instead of throwing. */
import type { FieldIssue } from '../errors.js';
import { validationFailed } from '../errors.js';
import type { ProductDraft } from './product.js';

export class Issues {
  readonly list: FieldIssue[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  throwIfAny(message?: string): void {
    if (this.list.length > 0) throw validationFailed(this.list, message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const CURRENCY = /^[A-Z]{3}$/;
const PRODUCT_FIELDS = new Set(['name', 'description', 'category', 'price', 'currency', 'tags', 'available']);

/** Validates one product of a menu file or import; `path` prefixes the issue paths. */
export function parseProductDraft(value: unknown, path: string, issues: Issues): ProductDraft | null {
  if (!isRecord(value)) {
    issues.add(path, 'must be an object');
    return null;
  }
  const before = issues.list.length;
  for (const key of Object.keys(value)) if (!PRODUCT_FIELDS.has(key)) issues.add(`${path}.${key}`, 'is not a known field');
  const text = (field: string, max: number, required: boolean): string => {
    const v = value[field];
    if (v === undefined && !required) return '';
    if (typeof v !== 'string' || (required && v.trim() === '') || v.length > max) {
      issues.add(`${path}.${field}`, `must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters`);
      return '';
    }
    return v.trim();
  };
  const name = text('name', 100, true);
  const description = text('description', 1000, false);
  const category = text('category', 50, true);
  if (!isIntegerIn(value['price'], 0, 100_000_000)) issues.add(`${path}.price`, 'must be an integer number of minor units (cents), 0 or more');
  const currency = value['currency'] ?? 'USD';
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) issues.add(`${path}.currency`, 'must be an ISO 4217 code such as USD');
  const tags = value['tags'] ?? [];
  if (!Array.isArray(tags) || tags.length > 20 || !tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 40)) {
    issues.add(`${path}.tags`, 'must be a list of at most 20 non-empty strings');
  }
  const available = value['available'] ?? true;
  if (typeof available !== 'boolean') issues.add(`${path}.available`, 'must be true or false');
  if (issues.list.length > before) return null;
  return {
    name,
    description,
    category,
    price: value['price'] as number,
    currency: currency as string,
    tags: (tags as string[]).map((t) => t.trim()),
    available: available as boolean,
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
    const key = draft.name.toLowerCase();
    if (names.has(key)) issues.add(`products.${i}.name`, `"${draft.name}" appears twice`);
    names.add(key);
    drafts.push(draft);
  });
  const currencies = new Set(drafts.map((d) => d.currency));
  if (currencies.size > 1) issues.add('products', `a menu has one currency, found ${[...currencies].join(', ')}`);
  issues.throwIfAny('The menu is invalid.');
  return drafts;
}
