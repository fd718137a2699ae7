import { describeKeyedOrderWritesContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresKeyedOrderWrites', () => {
  const { adapters } = usePostgresAdapters('storefront_pg_keyed');
  describeKeyedOrderWritesContract('PostgresKeyedOrderWrites', async () => adapters());
});
