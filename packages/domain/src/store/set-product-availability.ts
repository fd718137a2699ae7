import { DomainError } from '../shared/errors.js';
import type { MenuRepository } from '../menu/menu-repository.js';
import type { Product } from '../menu/product.js';

/**
 * "86 an item": marks a product (un)available. The menu, search, the menu's ETag and order
 * placement follow through the menu's revision (at once here, on the next revision read elsewhere).
 */
export class SetProductAvailability {
  constructor(private readonly menu: MenuRepository) {}

  async execute(input: { readonly productId: string; readonly available: boolean }): Promise<Product> {
    const product = await this.menu.setAvailability(input.productId, input.available);
    if (product === null) throw new DomainError('not_found', 'No such product.');
    return product;
  }
}
