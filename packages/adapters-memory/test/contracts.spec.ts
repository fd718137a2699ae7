/** Every port contract, run against the memory adapters: a fresh store per test. */
import {
  describeCustomerRepositoryContract,
  describeMenuRepositoryContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  describeRateLimiterContract,
  describeSessionStoreContract,
} from '@storefront/testing';
import {
  InMemoryCustomerRepository,
  InMemoryMenuRepository,
  InMemoryOrderRepository,
  InMemoryRateLimiter,
  InMemorySessionStore,
} from '../src/index.js';

describeMenuRepositoryContract('InMemoryMenuRepository', async () => new InMemoryMenuRepository());
describeOrderRepositoryContract('InMemoryOrderRepository', async () => new InMemoryOrderRepository());
describeOrderPlacementFaultsContract('InMemoryOrderRepository', async () => ({
  orders: new InMemoryOrderRepository(),
  menu: new InMemoryMenuRepository(),
}));
describeCustomerRepositoryContract('InMemoryCustomerRepository', async () => new InMemoryCustomerRepository());
describeSessionStoreContract('InMemorySessionStore', async () => new InMemorySessionStore());
describeRateLimiterContract('InMemoryRateLimiter', async () => new InMemoryRateLimiter());
