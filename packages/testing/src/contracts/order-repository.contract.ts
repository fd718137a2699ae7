/** What every OrderRepository must do: storing, listing and paging. */
import { describe } from 'mocha';
import type { OrderRepository } from '@storefront/domain';
import { orderListingContract } from './order-listing.contract.js';
import { orderPlacementFaultsContract, type PlacementAdapters } from './order-placement-faults.contract.js';

export type { PlacementAdapters } from './order-placement-faults.contract.js';
export { describeIdempotencyKeysContract, type IdempotencyStores } from './order-idempotency.contract.js';

export function describeOrderRepositoryContract(name: string, factory: () => Promise<OrderRepository>): void {
  describe(`${name} (OrderRepository contract)`, () => {
    describe('orders', () => orderListingContract(factory));
  });
}

/**
 * Keyed placement (the domain's PlaceOrder) over the adapter with failures injected at its
 * boundary: each case of the idempotency table in docs/decisions.md.
 */
export function describeOrderPlacementFaultsContract(name: string, factory: () => Promise<PlacementAdapters>): void {
  describe(`${name} (keyed placement under injected faults)`, () => orderPlacementFaultsContract(factory));
}
