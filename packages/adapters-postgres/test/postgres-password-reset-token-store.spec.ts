import { describePasswordResetTokenStoreContract } from '@storefront/testing';
import { describe } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresPasswordResetTokenStore', () => {
  const { adapters } = usePostgresAdapters();
  describePasswordResetTokenStoreContract('PostgresPasswordResetTokenStore', async () => adapters().resetTokens);
});
