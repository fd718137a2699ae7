import { describeOrderLifecycleContract, describeOrderOutboxContract, describeOrderRepositoryContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresOrderRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeOrderRepositoryContract('PostgresOrderRepository', async () => adapters().orders);
  describeOrderLifecycleContract('PostgresOrderRepository', async () => adapters().orders);
  describeOrderOutboxContract('PostgresOrderRepository', async () => adapters().orders);
});
