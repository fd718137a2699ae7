import type { Product, ProductDraft } from './product.js';

/** Where the menu lives. The menu is read-mostly: readers cache it by `revision()`. */
export interface MenuRepository {
  /** Every product, available or not, in the menu's stable order (category, then name). */
  list(): Promise<readonly Product[]>;
  /** The products with these ids; unknown ids are simply absent from the result. */
  findByIds(productIds: readonly string[]): Promise<readonly Product[]>;
  /**
   * Inserts or updates products matched by name (names are unique on a menu). Returns the saved
   * products with their ids. Either all are saved or none. Option groups and options get the ids
   * `assignOptionIds` derives from the names, so the same draft always saves the same ids.
   *
   * A draft's `available` is written only when the product is created: an existing product keeps
   * the availability the kitchen gave it (setAvailability), so importing the menu file again at a
   * restart never brings back a dish staff 86'd (DECISIONS "Restarts never undo the kitchen's
   * changes"). Everything else (name, description, category, price, tags, option groups with their
   * options' availability) follows the draft. The products returned carry the stored availability.
   */
  upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]>;
  /**
   * Marks one product available or not ("86 an item") and changes the revision when that changed
   * anything. Resolves to the product as stored, or null when there is no such product.
   */
  setAvailability(productId: string, available: boolean): Promise<Product | null>;
  /** Changes whenever the menu changes; cheap to call on every request. */
  revision(): Promise<string>;
}
