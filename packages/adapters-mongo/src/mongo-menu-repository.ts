/**
 * The menu in MongoDB: one document per product, `_id` = product id, matched by its lower-cased
 * name on upsert. Products are written with upserts keyed by name, so writing the same batch twice
 * converges on the same products with the same ids; see MenuRevision for how readers learn of it.
 * A draft's `available` is written with `$setOnInsert`, like the id: only a new product takes it,
 * an existing one keeps what the kitchen set (the MenuRepository port's rule).
 */
import type { MenuRepository, Product } from '@storefront/domain';
import type { ProductDraft } from '@storefront/domain/adapter-kit';
import { assignOptionIds, newId, productNameKeys } from '@storefront/domain/adapter-kit';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { MenuRevision } from './menu-revision.js';
import { freezeProduct, productFields, toProduct, type ProductDocument, type ProductFields } from './product-mapper.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export class MongoMenuRepository implements MenuRepository {
  constructor(
    private readonly products: Collection<ProductDocument>,
    private readonly revisions: MenuRevision,
  ) {}

  list(): Promise<readonly Product[]> {
    return databaseOperation(async () => {
      // No collation: strings then compare by their UTF-8 bytes, which is code-point order, the
      // order `compareProducts` documents (served from the products_menu_order index).
      const documents = await this.products.find({}).sort({ category: 1, name: 1, _id: 1 }).toArray();
      return documents.map(toProduct);
    });
  }

  async findByIds(productIds: readonly string[]): Promise<readonly Product[]> {
    if (productIds.length === 0) return [];
    return databaseOperation(async () => {
      const documents = await this.products.find({ _id: { $in: [...new Set(productIds)] } }).toArray();
      return documents.map(toProduct);
    });
  }

  async upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]> {
    // Checked before anything is written: a bad batch writes nothing.
    const keys = productNameKeys(drafts);
    if (drafts.length === 0) return [];
    // Option ids follow from the names: computed here, no read of the stored products needed.
    const fields = await Promise.all(
      drafts.map(async (draft, i) => productFields(draft, await assignOptionIds(draft.name, draft.optionGroups, `${i}.optionGroups`))),
    );
    return databaseOperation(async () => {
      const write = await this.revisions.begin();
      let changed: boolean;
      try {
        changed = await this.write(fields, keys);
      } catch (error) {
        // Some upserts may have landed: make readers look again, then report the failure.
        await this.revisions.end(write, true).catch(() => undefined);
        throw error;
      }
      await this.revisions.end(write, changed);
      const stored = await this.storedByNameKey(keys);
      return drafts.map((draft, i) => {
        const found = stored.get(keys[i]!);
        if (found === undefined) throw new Error(`the product "${draft.name}" was not found after its upsert`);
        return freezeProduct(found._id, { ...fields[i]!, available: found.available });
      });
    });
  }

  /**
   * One atomic update that answers the product as it was, so the revision is bumped exactly when
   * the availability changed (an 86 of a dish already 86'd leaves readers' caches alone). Marked in
   * the revision counter like any write, so a writer that dies before its bump still makes readers
   * look again.
   */
  setAvailability(productId: string, available: boolean): Promise<Product | null> {
    return databaseOperation(async () => {
      const write = await this.revisions.begin();
      let before: ProductDocument | null;
      try {
        before = await this.products.findOneAndUpdate({ _id: productId }, { $set: { available } }, { returnDocument: 'before' });
      } catch (error) {
        await this.revisions.end(write, true).catch(() => undefined);
        throw error;
      }
      await this.revisions.end(write, before !== null && before.available !== available);
      return before === null ? null : toProduct({ ...before, available });
    });
  }

  revision(): Promise<string> {
    return databaseOperation(() => this.revisions.current());
  }

  /**
   * Upserts every draft; true when a product was created or changed (an update that sets the same
   * values is not counted by the server). Not a transaction: if it fails half-way, the products
   * written so far stay written, and running the same batch again writes the rest and leaves the
   * others as they are (same ids: `$setOnInsert` assigns one only on creation).
   */
  private async write(products: readonly ProductFields[], keys: readonly string[]): Promise<boolean> {
    const operations: AnyBulkWriteOperation<ProductDocument>[] = products.map(({ available, ...fields }, i) => ({
      updateOne: {
        filter: { nameKey: keys[i]! },
        // A product without a rate of its own loses the one it had: the store's rate applies.
        update: { $set: fields, $setOnInsert: { _id: newId('prd'), available }, ...(fields.taxRate === undefined ? { $unset: { taxRate: '' } } : {}) },
        upsert: true,
      },
    }));
    const run = async (): Promise<boolean> => {
      const result = await this.products.bulkWrite(operations, { ordered: false });
      return result.upsertedCount + result.modifiedCount > 0;
    };
    try {
      return await run();
    } catch (error) {
      // Two writers creating the same new name race on the unique index; the loser's retry finds
      // the winner's product and updates it.
      if (!isDuplicateKey(error)) throw error;
      await run();
      return true;
    }
  }

  /** The id and availability of each product as stored, by name key. */
  private async storedByNameKey(keys: readonly string[]): Promise<Map<string, Pick<ProductDocument, '_id' | 'available'>>> {
    const found = await this.products
      .find({ nameKey: { $in: [...keys] } }, { projection: { _id: 1, nameKey: 1, available: 1 } })
      .toArray();
    return new Map(found.map((document) => [document.nameKey, { _id: document._id, available: document.available }]));
  }
}
