import { describeOrderPlacementFaultsContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresOrderRepository under injected faults', () => {
  const { adapters } = usePostgresAdapters();
  describeOrderPlacementFaultsContract('PostgresOrderRepository', async () => adapters());
});
