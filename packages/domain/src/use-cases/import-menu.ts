import type { Product } from '../model/product.js';
import { parseMenuDocument } from '../model/validation.js';
import type { MenuRepository } from '../ports/menu-repository.js';

/**
 * Loads a menu document `{"products": [...]}`: validated as a whole first (nothing is written if
 * any product is invalid), then upserted by name, so importing the same file twice changes nothing.
 */
export class ImportMenu {
  constructor(private readonly menu: MenuRepository) {}

  async execute(document: unknown): Promise<readonly Product[]> {
    return this.menu.upsertByName(parseMenuDocument(document));
  }
}
