/**
 * @storefront/testing: one contract suite per port, run against every adapter (memory, Mongo,
 * Redis), and small builders of valid test data. Test-only.
 */
export * from './builders.js';
export { expectDomainError, rejectionOf, sleep } from './assertions.js';
export { describeMenuRepositoryContract } from './contracts/menu-repository.contract.js';
export { describeOrderRepositoryContract } from './contracts/order-repository.contract.js';
export { describeCustomerRepositoryContract } from './contracts/customer-repository.contract.js';
export { describeSessionStoreContract } from './contracts/session-store.contract.js';
export { describeRateLimiterContract } from './contracts/rate-limiter.contract.js';
