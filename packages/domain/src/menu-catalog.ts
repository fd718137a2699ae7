/**
 * A cached view of the menu for readers: the products in stable order, an id lookup and the search
 * index, rebuilt only when the repository's revision changes. Concurrent readers share one rebuild.
 */
import type { Product } from './model/product.js';
import type { MenuRepository } from './ports/menu-repository.js';
import { MenuSearchIndex } from './search/menu-search-index.js';

/** The menu at one revision, as `listMenu` returns it: `products` in the menu's stable order. */
export interface MenuSnapshot {
  readonly revision: string;
  readonly products: readonly Product[];
  readonly byId: ReadonlyMap<string, Product>;
  readonly index: MenuSearchIndex;
}

export class MenuCatalog {
  private current: Promise<MenuSnapshot> | null = null;
  private currentRevision: string | null = null;

  constructor(private readonly menu: MenuRepository) {}

  async snapshot(): Promise<MenuSnapshot> {
    const revision = await this.menu.revision();
    if (this.current === null || this.currentRevision !== revision) {
      this.currentRevision = revision;
      this.current = this.build(revision);
      this.current.catch(() => {
        // A failed build must not stick: the next reader tries again.
        if (this.currentRevision === revision) {
          this.current = null;
          this.currentRevision = null;
        }
      });
    }
    return this.current;
  }

  private async build(revision: string): Promise<MenuSnapshot> {
    const products = await this.menu.list();
    return {
      revision,
      products,
      byId: new Map(products.map((p) => [p.productId, p])),
      index: MenuSearchIndex.build(products),
    };
  }
}
