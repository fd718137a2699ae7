import { describeSessionStoreContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresSessionStore', () => {
  const { adapters } = usePostgresAdapters();
  describeSessionStoreContract('PostgresSessionStore', async () => adapters().sessions);
});
