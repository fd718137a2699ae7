import { describeIdempotencyKeysContract, describeOrderLifecycleContract, describeOrderOutboxContract, describeOrderRepositoryContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgreSQL orders, their keys and their outbox', () => {
  const { adapters } = usePostgresAdapters();
  describeOrderRepositoryContract('PostgresOrderRepository', async () => adapters().orders);
  describeOrderLifecycleContract('PostgresOrderRepository', async () => adapters().orders);
  describeIdempotencyKeysContract('PostgresIdempotencyKeys', async () => adapters());
  describeOrderOutboxContract('PostgresOrderOutbox', async () => adapters());
});
