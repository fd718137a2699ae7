import { describeProviderEventsContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresProviderEvents', () => {
  const { adapters } = usePostgresAdapters();
  describeProviderEventsContract('PostgresProviderEvents', async () => adapters().providerEvents);
});
