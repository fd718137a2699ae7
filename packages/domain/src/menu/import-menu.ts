import type { MenuCatalog } from './menu-catalog.js';
import type { Product } from './product.js';
import { parseMenuDocument } from './menu-document.js';
import type { MenuRepository } from './menu-repository.js';

/**
 * Loads a menu document `{"products": [...]}`: validated as a whole first (nothing is written if
 * any product is invalid), then upserted by name, so importing the same file twice changes nothing.
 * The readers' snapshot of the menu (with its search index) is then rebuilt at once, so that a menu
 * loaded at start is ready before the first request rather than built by it.
 */
export class ImportMenu {
  constructor(
    private readonly menu: MenuRepository,
    private readonly catalog?: MenuCatalog,
  ) {}

  async execute(document: unknown): Promise<readonly Product[]> {
    const saved = await this.menu.upsertByName(parseMenuDocument(document));
    // The import has happened whatever this says: a failed build is retried by the next reader.
    await this.catalog?.snapshot().catch(() => undefined);
    return saved;
  }
}
