import { describeCustomerRepositoryContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresCustomerRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeCustomerRepositoryContract('PostgresCustomerRepository', async () => adapters().customers);
});
