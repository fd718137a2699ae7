/**
 * The adapters of one spec file on a throwaway, migrated database (dropped after the file), or the
 * suite skipped loudly without PostgreSQL.
 */
import { usePostgresTestDatabase, type TestDatabase } from '@storefront/testing';
import { before } from 'mocha';
import { createPostgresAdapters, migrate, type PostgresAdapters } from '../src/index.js';

export function usePostgresAdapters(prefix = 'storefront_pg'): { adapters: () => PostgresAdapters; database: () => TestDatabase } {
  const database = usePostgresTestDatabase(prefix);
  let adapters: PostgresAdapters | undefined;
  before(async function () {
    await migrate(database().pool);
    adapters = await createPostgresAdapters({ pool: database().pool });
  });
  return {
    database,
    adapters: () => {
      if (adapters === undefined) throw new Error('the adapters are not ready (use them inside tests and hooks)');
      return adapters;
    },
  };
}
