/** What every OrderRepository must do: listing and paging, then Idempotency-Key claims. */
import { describe } from 'mocha';
import type { OrderRepository } from '@storefront/domain';
import { orderIdempotencyContract } from './order-idempotency.contract.js';
import { orderListingContract } from './order-listing.contract.js';

export function describeOrderRepositoryContract(name: string, factory: () => Promise<OrderRepository>): void {
  describe(`${name} (OrderRepository contract)`, () => {
    describe('orders', () => orderListingContract(factory));
    describe('idempotency keys', () => orderIdempotencyContract(factory));
  });
}
