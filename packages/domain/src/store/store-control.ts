/** The kitchen's controls over the store: 86 an item, pause ordering; and the store as customers see it. */
import { DomainError } from '../shared/errors.js';
import type { Product } from '../menu/product.js';
import type { StoreStatus } from './store.js';
import type { MenuRepository } from '../menu/menu-repository.js';
import type { StoreGate } from './store-gate.js';

/** `GET /api/store`. */
export class GetStoreStatus {
  constructor(private readonly gate: StoreGate) {}

  execute(): Promise<StoreStatus> {
    return this.gate.status();
  }
}

/** Pauses ordering (false) until set back (true); shared by every instance. */
export class SetAcceptingOrders {
  constructor(private readonly gate: StoreGate) {}

  async execute(input: { readonly acceptingOrders: boolean }): Promise<StoreStatus> {
    await this.gate.setAcceptingOrders(input.acceptingOrders);
    return this.gate.status();
  }
}

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
