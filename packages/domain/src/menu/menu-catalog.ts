/**
 * A cached view of the menu for readers: the products in stable order, an id lookup and the search
 * index, rebuilt only when the repository's revision changes. Concurrent readers share one rebuild.
 */
import type { Product } from './product.js';
import type { MenuRepository } from './menu-repository.js';
import { MenuSearchIndex } from '../search/menu-search-index.js';

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
  /** The last snapshot built, once its build has finished. */
  private built: MenuSnapshot | null = null;

  constructor(private readonly menu: MenuRepository) {}

  async snapshot(): Promise<MenuSnapshot> {
    const revision = await this.menu.revision();
    // The common case, on every menu read: answered with the value itself. Returning the promise
    // from an async function would cost two more turns of the microtask queue per read.
    const built = this.built;
    if (built !== null && built.revision === revision) return built;
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
    return await this.current;
  }

  private async build(revision: string): Promise<MenuSnapshot> {
    const products = await this.menu.list();
    const snapshot: MenuSnapshot = {
      revision,
      products,
      byId: new Map(products.map((p) => [p.productId, p])),
      index: MenuSearchIndex.build(products),
    };
    if (this.currentRevision === revision) this.built = snapshot;
    return snapshot;
  }
}
