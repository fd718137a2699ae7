/**
 * The menu held in process memory: the embedded default and the store behind tests. Products are
 * frozen, so a reader can never change the menu it was handed, and a write swaps in a whole new
 * list at once, so a reader never sees half an import.
 */
import { randomUUID } from 'node:crypto';
import type { MenuRepository, OptionGroup, Product } from '@storefront/domain';
import type { ProductDraft } from '@storefront/domain/adapter-kit';
import { assignOptionIds, compareProducts, newId, productNameKey, productNameKeys } from '@storefront/domain/adapter-kit';

export class InMemoryMenuRepository implements MenuRepository {
  private products: readonly Product[] = Object.freeze([]);
  private byId: ReadonlyMap<string, Product> = new Map();
  private version = 0;
  // Revisions end up in ETags: a restarted process assigns new product ids, so its revision "1"
  // must not match the "1" a client cached from the previous process.
  private readonly instance = randomUUID().slice(0, 8);
  private revisionText = `${this.instance}.${this.version}`;

  async list(): Promise<readonly Product[]> {
    return this.products;
  }

  async findByIds(productIds: readonly string[]): Promise<readonly Product[]> {
    const found = new Map<string, Product>();
    for (const id of productIds) {
      const product = this.byId.get(id);
      if (product !== undefined) found.set(id, product);
    }
    return [...found.values()];
  }

  async upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]> {
    // Ids of option groups and options first (hashing is asynchronous): the write below then
    // happens in one synchronous step, so no reader or other write sees half of it.
    const groups = await Promise.all(drafts.map((draft, i) => assignOptionIds(draft.name, draft.optionGroups, `${i}.optionGroups`)));
    const byName = new Map(this.products.map((p) => [productNameKey(p.name), p]));
    // Checked before anything is written: all or nothing.
    const keys = productNameKeys(drafts);
    const saved: Product[] = [];
    let changed = false;
    drafts.forEach((draft, i) => {
      const key = keys[i]!;
      const existing = byName.get(key);
      // The draft's availability only for a new product: an existing one keeps the kitchen's.
      const available = existing?.available ?? draft.available;
      const next = freezeProduct(existing?.productId ?? newId('prd'), { ...draft, available }, groups[i]!);
      const product = existing !== undefined && sameProduct(existing, next) ? existing : next;
      if (product !== existing) changed = true;
      byName.set(key, product);
      saved.push(product);
    });
    if (changed) this.commit([...byName.values()]);
    return saved;
  }

  async setAvailability(productId: string, available: boolean): Promise<Product | null> {
    const product = this.byId.get(productId);
    if (product === undefined) return null;
    // Nothing changed, nothing to tell: the revision (and the ETag clients hold) stays valid.
    if (product.available === available) return product;
    const next = Object.freeze({ ...product, available });
    // Same name and category, so the same place in the menu's order: no re-sort.
    this.commit(this.products.map((p) => (p === product ? next : p)), false);
    return next;
  }

  revision(): Promise<string> {
    // Asked on every menu read: the text is made when the menu changes, not per call.
    return Promise.resolve(this.revisionText);
  }

  private commit(products: Product[], sort = true): void {
    this.products = Object.freeze(sort ? products.sort(compareProducts) : products);
    this.byId = new Map(products.map((p) => [p.productId, p]));
    this.version += 1;
    this.revisionText = `${this.instance}.${this.version}`;
  }
}

/** `optionGroups`: the draft's groups with their ids, frozen (assignOptionIds). */
function freezeProduct(productId: string, draft: ProductDraft, optionGroups: readonly OptionGroup[]): Product {
  // Only the known fields are copied: a draft object may carry anything else.
  return Object.freeze({
    productId,
    name: draft.name,
    description: draft.description,
    category: draft.category,
    price: draft.price,
    currency: draft.currency,
    tags: Object.freeze([...draft.tags]),
    available: draft.available,
    optionGroups,
    ...(draft.taxRate === undefined ? {} : { taxRate: draft.taxRate }),
  });
}

function sameProduct(a: Product, b: Product): boolean {
  return (
    a.productId === b.productId &&
    a.name === b.name &&
    a.description === b.description &&
    a.category === b.category &&
    a.price === b.price &&
    a.currency === b.currency &&
    a.available === b.available &&
    a.taxRate === b.taxRate &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, i) => tag === b.tags[i]) &&
    sameGroups(a.optionGroups, b.optionGroups)
  );
}

function sameGroups(a: readonly OptionGroup[], b: readonly OptionGroup[]): boolean {
  // Groups hold only strings, numbers and booleans, in a fixed key order (assignOptionIds).
  return a.length === b.length && (a.length === 0 || JSON.stringify(a) === JSON.stringify(b));
}
