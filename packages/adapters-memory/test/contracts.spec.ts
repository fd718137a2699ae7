/** Every port contract, run against the memory adapters: a fresh store per test. */
import {
  describeCustomerRepositoryContract,
  describeMenuRepositoryContract,
  describeOrderLifecycleContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  describeRateLimiterContract,
  describeSessionStoreContract,
  describeStoreStateRepositoryContract,
} from '@storefront/testing';
import {
  InMemoryCustomerRepository,
  InMemoryMenuRepository,
  InMemoryOrderRepository,
  InMemoryRateLimiter,
  InMemorySessionStore,
  InMemoryStoreStateRepository,
} from '../src/index.js';

describeMenuRepositoryContract('InMemoryMenuRepository', async () => new InMemoryMenuRepository());
describeOrderRepositoryContract('InMemoryOrderRepository', async () => new InMemoryOrderRepository());
describeOrderLifecycleContract('InMemoryOrderRepository', async () => new InMemoryOrderRepository());
describeOrderPlacementFaultsContract('InMemoryOrderRepository', async () => ({
  orders: new InMemoryOrderRepository(),
  menu: new InMemoryMenuRepository(),
}));
describeCustomerRepositoryContract('InMemoryCustomerRepository', async () => new InMemoryCustomerRepository());
describeStoreStateRepositoryContract('InMemoryStoreStateRepository', async () => new InMemoryStoreStateRepository());
describeSessionStoreContract('InMemorySessionStore', async () => new InMemorySessionStore());
describeRateLimiterContract('InMemoryRateLimiter', async () => new InMemoryRateLimiter());
