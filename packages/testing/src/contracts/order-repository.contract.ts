/** What every OrderRepository must do: listing and paging, then Idempotency-Key claims. */
import { describe } from 'mocha';
import type { OrderRepository } from '@storefront/domain';
import { orderIdempotencyContract } from './order-idempotency.contract.js';
import { orderListingContract } from './order-listing.contract.js';
import { orderPlacementFaultsContract, type PlacementAdapters } from './order-placement-faults.contract.js';

export type { PlacementAdapters } from './order-placement-faults.contract.js';

export function describeOrderRepositoryContract(name: string, factory: () => Promise<OrderRepository>): void {
  describe(`${name} (OrderRepository contract)`, () => {
    describe('orders', () => orderListingContract(factory));
    describe('idempotency keys', () => orderIdempotencyContract(factory));
  });
}

/**
 * Keyed placement (the domain's PlaceOrder) over the adapter with failures injected at its
 * boundary: each case of the idempotency table in docs/decisions.md.
 */
export function describeOrderPlacementFaultsContract(name: string, factory: () => Promise<PlacementAdapters>): void {
  describe(`${name} (keyed placement under injected faults)`, () => orderPlacementFaultsContract(factory));
}
