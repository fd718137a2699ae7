/**
 * Ready means ready on PostgreSQL (DECISIONS "Ready means ready"): with demo data, /api/status
 * answered 200 and logins were served while the demo accounts were still being created, so a client
 * that waited for the status check got 401 for kitchen@example.com and owner@example.com. Seeding is
 * held here deterministically: a transaction of the test holds the customers table in EXCLUSIVE
 * mode (reads pass, the seed's inserts wait) until the test lets it go.
 */
import { generateSigningKey } from '@storefront/adapters-crypto';
import { migrate } from '@storefront/adapters-postgres';
import { createTestDatabaseOrSkip } from '@storefront/testing';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import pg from 'pg';
import { startStorefront, type RunningStorefront } from '../../src/server.js';

const ENV = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10', STOREFRONT_STORE: 'postgres', STOREFRONT_DEMO_DATA: 'true' } as const;

const login = (running: RunningStorefront, email: string, password: string): Promise<Response> =>
  fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('A PostgreSQL instance with demo data, before its accounts exist', function () {
  this.timeout(60_000);
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('answers /api/status 503 and logins 503 with Retry-After until seeded; a client that polled status to 200 then logs in as kitchen and owner at once', async function () {
    const db = await createTestDatabaseOrSkip(this, 'storefront_ready');
    cleanup.push(() => db.drop());
    await migrate(db.pool);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    cleanup.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE customers IN EXCLUSIVE MODE');
    let held = true;
    const release = async (): Promise<void> => {
      if (!held) return;
      held = false;
      await holder.query('COMMIT');
    };
    cleanup.push(release);

    const running = await startStorefront({ ...ENV, DATABASE_URL: db.url, TOKEN_SECRET_KEY: generateSigningKey() });
    cleanup.push(() => running.close());

    // The client of the issue: polls the status until 200, then logs in at once.
    const polls: number[] = [];
    const client = (async () => {
      await until(async () => {
        const status = await fetch(`${running.url}/api/status`);
        polls.push(status.status);
        return status.status === 200;
      }, 'the status to answer 200', 40_000);
      return [(await login(running, 'kitchen@example.com', 'kitchen-password')).status, (await login(running, 'owner@example.com', 'owner-password')).status];
    })();

    // Connected, the menu loaded, the first account's insert waiting on the lock.
    await until(async () => {
      const waiting = await db.pool.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      return waiting.rowCount! > 0;
    }, 'the seed to wait for the customers table');
    // Longer than the status check's cache (1 s): an answer from before the connection is gone.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const early = await login(running, 'alice@example.com', 'alice-password');
    expect(early.status).to.equal(503);
    expect(early.headers.get('retry-after')).to.equal('1');
    expect(await early.json()).to.include({ error: 'service_unavailable' });
    const status = await fetch(`${running.url}/api/status`);
    expect(status.status).to.equal(503);
    expect(await status.json()).to.deep.equal({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
    expect(polls).to.not.include(200);

    await release();
    expect(await client).to.deep.equal([200, 200]);
  });
});
