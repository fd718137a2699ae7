import { describeStoreStateRepositoryContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresStoreStateRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeStoreStateRepositoryContract('PostgresStoreStateRepository', async () => adapters().storeState);
});
