/**
 * Driver failures as the domain sees them, caused for real: a statement past statement_timeout
 * (PG_TIMEOUT_MS), a connection the server drops mid-statement, a pool whose connections all stay
 * busy, a server that refuses or never answers; and the start-up errors that must stop the process rather than retry.
 */
import { createServer, type Server } from 'node:net';
import { expectDomainError, freePort, rejectionOf, testDatabaseBaseUrl } from '@storefront/testing';
import { expect } from 'chai';
import type { DomainError } from '@storefront/domain';
import { after, before, describe, it } from 'mocha';
import pg from 'pg';
import { createPostgresAdapters, PostgresMenuRepository, postgresStartError, postgresDatabaseProbe } from '../src/index.js';
import { usePostgresAdapters } from './postgres-adapters.js';

/** Holds the store_state row locked in a transaction of its own until `release()`. */
async function lockStoreState(pool: pg.Pool): Promise<{ release(): Promise<void> }> {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT * FROM store_state FOR UPDATE');
  return {
    release: async () => {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

describe('PostgreSQL failures as domain errors', () => {
  const { adapters, database } = usePostgresAdapters('storefront_errors');
  before(async () => {
    await adapters().storeState.setAcceptingOrders(true);
  });

  it('answers database_unavailable when a statement outlives statement_timeout, and the pool serves the next one', async () => {
    const timed = new pg.Pool({ connectionString: database().url, statement_timeout: 200, max: 2 });
    try {
      const slow = await createPostgresAdapters({ pool: timed });
      const lock = await lockStoreState(database().pool);
      try {
        const error = (await expectDomainError(slow.storeState.setAcceptingOrders(false), 'database_unavailable')) as Error;
        expect((error.cause as { code?: string }).code).to.equal('57014');
        expect(error.message).to.not.match(/statement|timeout|store_state/i);
      } finally {
        await lock.release();
      }
      expect(await slow.storeState.get()).to.deep.equal({ acceptingOrders: true });
    } finally {
      await timed.end();
    }
  });

  it('answers database_unavailable when the server drops the connection mid-statement, and the pool reconnects', async () => {
    const pool = new pg.Pool({ connectionString: database().url, max: 1, application_name: 'storefront_dropped' });
    pool.on('error', () => undefined);
    try {
      const dropped = await createPostgresAdapters({ pool });
      const lock = await lockStoreState(database().pool);
      try {
        const waiting = expectDomainError(dropped.storeState.setAcceptingOrders(false), 'database_unavailable');
        // The statement is waiting for the lock: end its backend as a server restart would.
        for (let i = 0; i < 50; i++) {
          const ended = await database().pool.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'storefront_dropped' AND wait_event_type = 'Lock'",
          );
          if ((ended.rowCount ?? 0) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await waiting;
      } finally {
        await lock.release();
      }
      expect(await dropped.storeState.get()).to.deep.equal({ acceptingOrders: true });
    } finally {
      await pool.end();
    }
  });

  it('answers service_unavailable with a retry hint when every pooled connection stays busy past connectionTimeoutMillis, and nothing ran', async () => {
    const busy = new pg.Pool({ connectionString: database().url, max: 1, connectionTimeoutMillis: 200 });
    try {
      const adaptersOnBusyPool = await createPostgresAdapters({ pool: busy });
      const held = await busy.connect();
      try {
        const error = (await expectDomainError(adaptersOnBusyPool.storeState.setAcceptingOrders(false), 'service_unavailable')) as DomainError;
        expect(error.retryAfterSeconds).to.equal(1);
        expect((error.cause as Error).message).to.equal('timeout exceeded when trying to connect');
        expect(error.message).to.not.match(/timeout|connect|pool/i);
      } finally {
        held.release();
      }
      expect(await adapters().storeState.get(), 'the refused write never reached the server').to.deep.equal({ acceptingOrders: true });
      // Start-up keeps retrying a busy pool like an outage.
      expect(postgresStartError(new Error('timeout exceeded when trying to connect'))).to.include({ fatal: false });
    } finally {
      await busy.end();
    }
  });

  describe('a server that cannot be reached', () => {
    let silent: Server;
    let silentPort: number;
    before(async () => {
      // Accepts connections and never answers: a server that hangs, or a black-holed network.
      silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentPort = (silent.address() as { port: number }).port;
    });
    after(() => {
      silent.close();
    });

    const portsOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/storefront`;

    it('answers database_unavailable when the connection is refused, and fails the store probe', async () => {
      const pool = new pg.Pool({ connectionString: portsOf(await freePort()), connectionTimeoutMillis: 1000 });
      try {
        await expectDomainError(new PostgresMenuRepository(pool).list(), 'database_unavailable');
        expect(await rejectionOf(postgresDatabaseProbe(pool).check())).to.be.instanceOf(Error);
        expect(postgresStartError(await rejectionOf(pool.query('SELECT 1')))).to.include({ fatal: false });
      } finally {
        await pool.end();
      }
    });

    it('answers database_unavailable when connecting takes longer than connectionTimeoutMillis', async () => {
      const pool = new pg.Pool({ connectionString: portsOf(silentPort), connectionTimeoutMillis: 300 });
      try {
        await expectDomainError(new PostgresMenuRepository(pool).revision(), 'database_unavailable');
        expect(postgresStartError(await rejectionOf(pool.query('SELECT 1')))).to.include({ fatal: false });
      } finally {
        await pool.end();
      }
    });
  });

  describe('postgresStartError', () => {
    const startError = async (connectionString: string) => {
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
      const error = await rejectionOf(client.connect());
      await client.end().catch(() => undefined);
      return postgresStartError(error);
    };

    it('calls a missing database fatal (3D000), naming it', async () => {
      const verdict = await startError(withDatabase(testDatabaseBaseUrl(), 'storefront_no_such_database'));
      expect(verdict.fatal).to.equal(true);
      expect(verdict.reason).to.match(/does not exist.*3D000/);
    });

    it('calls an unknown role fatal (28000)', async () => {
      const url = new URL(testDatabaseBaseUrl());
      url.username = 'storefront_no_such_role';
      const verdict = await startError(url.toString());
      expect(verdict.fatal).to.equal(true);
      expect(verdict.reason).to.match(/28000/);
    });

    it('calls a refused password fatal (28P01) and a malformed URL fatal, without showing the password', () => {
      const refused = Object.assign(new Error('password authentication failed for user "shop"'), { code: '28P01' });
      expect(postgresStartError(refused)).to.deep.equal({ fatal: true, reason: 'the password was refused (28P01: password authentication failed for user "shop")' });
      expect(postgresStartError(new TypeError('Invalid URL')).fatal).to.equal(true);
    });
  });
});
