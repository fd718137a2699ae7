/**
 * Products as stored: the domain fields plus `nameKey`, the lower-cased name that keeps names
 * unique regardless of case. Handed out frozen, as the memory store's are: readers cache the menu
 * by revision and must not change each other's copy. Prices and deltas are BSON int64 (money.ts);
 * option groups sit in the document with their ids; `taxRate` (int32) is absent for the store's
 * rate. A field newer than a document reads as its default (no options, the store's rate).
 */
import type { OptionGroup, Product } from '@storefront/domain';
import type { Option, ProductDraft } from '@storefront/domain/adapter-kit';
import { fromStoredMoney, toStoredMoney, type StoredMoney } from './money.js';

export interface OptionDocument {
  optionId: string;
  name: string;
  priceDelta: StoredMoney;
  available: boolean;
}

export interface OptionGroupDocument {
  groupId: string;
  name: string;
  min: number;
  max: number;
  options: OptionDocument[];
}

export interface ProductDocument {
  _id: string;
  nameKey: string;
  name: string;
  description: string;
  category: string;
  price: StoredMoney;
  currency: string;
  tags: string[];
  available: boolean;
  /** Absent on documents written before option groups existed. */
  optionGroups?: OptionGroupDocument[];
  /** Absent: the store's rate. */
  taxRate?: number;
}

/** What the store writes of a product besides `_id` and `nameKey`. */
export type ProductFields = Omit<ProductDocument, '_id' | 'nameKey' | 'optionGroups'> & { optionGroups: OptionGroupDocument[] };


/**
 * The fields an upsert writes: only the known ones, whatever else a draft object carries.
 * `optionGroups` are the draft's groups with their ids.
 */
export function productFields(draft: ProductDraft, optionGroups: readonly OptionGroup[]): ProductFields {
  return {
    name: draft.name,
    description: draft.description,
    category: draft.category,
    price: toStoredMoney(draft.price),
    currency: draft.currency,
    tags: [...draft.tags],
    available: draft.available,
    optionGroups: optionGroups.map(toGroupDocument),
    ...(draft.taxRate === undefined ? {} : { taxRate: draft.taxRate }),
  };
}

export function toProduct(document: ProductDocument): Product {
  return freezeProduct(document._id, document);
}

export function freezeProduct(productId: string, fields: Omit<ProductDocument, '_id' | 'nameKey'>): Product {
  return Object.freeze({
    productId,
    name: fields.name,
    description: fields.description,
    category: fields.category,
    price: fromStoredMoney(fields.price),
    currency: fields.currency,
    tags: Object.freeze([...fields.tags]),
    available: fields.available,
    optionGroups: Object.freeze((fields.optionGroups ?? []).map(toGroup)),
    ...(fields.taxRate === undefined ? {} : { taxRate: fields.taxRate as NonNullable<Product['taxRate']> }),
  });
}

function toGroupDocument(group: OptionGroup): OptionGroupDocument {
  return {
    groupId: group.groupId,
    name: group.name,
    min: group.min,
    max: group.max,
    options: group.options.map((o) => ({ optionId: o.optionId, name: o.name, priceDelta: toStoredMoney(o.priceDelta), available: o.available })),
  };
}

function toGroup(document: OptionGroupDocument): OptionGroup {
  return Object.freeze({
    groupId: document.groupId,
    name: document.name,
    min: document.min,
    max: document.max,
    options: Object.freeze(document.options.map(toOption)),
  });
}

function toOption(document: OptionDocument): Option {
  return Object.freeze({ optionId: document.optionId, name: document.name, priceDelta: fromStoredMoney(document.priceDelta), available: document.available });
}
