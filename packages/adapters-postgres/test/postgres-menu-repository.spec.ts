import { describeMenuRepositoryContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresMenuRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeMenuRepositoryContract('PostgresMenuRepository', async () => adapters().menu);
});
