import type { MenuCatalog, MenuSnapshot } from './menu-catalog.js';

/** The whole menu, available dishes and unavailable ones, in stable order (category, then name). */
export class ListMenu {
  constructor(private readonly catalog: MenuCatalog) {}

  execute(): Promise<MenuSnapshot> {
    return this.catalog.snapshot();
  }
}
