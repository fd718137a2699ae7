/**
 * Products as stored: the domain fields plus `nameKey`, the lower-cased name that makes names
 * unique regardless of case. Products handed out are frozen, as the memory store's are, because
 * readers cache the menu by revision and must not be able to change each other's copy.
 */
import type { Product, ProductDraft } from '@storefront/domain';

export interface ProductDocument {
  _id: string;
  nameKey: string;
  name: string;
  description: string;
  category: string;
  price: number;
  currency: string;
  tags: string[];
  available: boolean;
}

/** Names are unique on a menu regardless of case (the same rule as the memory store). */
export function productNameKey(name: string): string {
  return name.toLowerCase();
}

/** The fields an upsert writes: only the known ones, whatever else a draft object carries. */
export function productFields(draft: ProductDraft): Omit<ProductDocument, '_id' | 'nameKey'> {
  return {
    name: draft.name,
    description: draft.description,
    category: draft.category,
    price: draft.price,
    currency: draft.currency,
    tags: [...draft.tags],
    available: draft.available,
  };
}

export function toProduct(document: ProductDocument): Product {
  return freezeProduct(document._id, document);
}

export function freezeProduct(productId: string, fields: ProductDraft): Product {
  return Object.freeze({
    productId,
    name: fields.name,
    description: fields.description,
    category: fields.category,
    price: fields.price,
    currency: fields.currency,
    tags: Object.freeze([...fields.tags]),
    available: fields.available,
  });
}
