/**
 * The PostgreSQL store's life cycle in the service (DECISIONS "Running on PostgreSQL"): a start
 * before PostgreSQL is up serves at once and connects when it comes; what no retry can change
 * (a missing database, a refused role, a schema newer than the code) stops the process naming
 * DATABASE_URL; instances starting together migrate once; `storefront db migrate` does it by hand;
 * a shutdown drains the pool.
 *
 * On throwaway databases of the machine's PostgreSQL (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test) and, for the server that is not up yet, a private one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { migrate, SCHEMA_VERSION } from '@storefront/adapters-postgres';
import { createTestDatabaseOrSkip, startPrivatePostgresOrSkip, testDatabaseBaseUrl, type TestDatabase } from '@storefront/testing';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import pg from 'pg';
import { ConfigError } from '../../src/config.js';
import { startStorefront, type RunningStorefront } from '../../src/server.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

const BASE = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10', STOREFRONT_STORE: 'postgres' } as const;

function envOn(url: string): Record<string, string> {
  return { ...BASE, DATABASE_URL: url, TOKEN_SECRET_KEY: generateSigningKey() };
}

function onDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function statusOf(storefront: RunningStorefront): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${storefront.url}/api/status`);
  return { status: response.status, body: await response.json() };
}

/** Runs main.js until it exits (or 20 s); its exit code and stderr. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('The PostgreSQL database starting and stopping', function () {
  this.timeout(60_000);
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const database = async (context: Mocha.Context, prefix: string): Promise<TestDatabase> => {
    const db = await createTestDatabaseOrSkip(context, prefix);
    cleanup.push(() => db.drop());
    return db;
  };

  it('serves at once when PostgreSQL is not up yet, reports the database down (checks.store), and connects when it comes up', async function () {
    const server = await startPrivatePostgresOrSkip(this, 'the start before PostgreSQL');
    cleanup.push(() => server.destroy());
    const admin = new pg.Client(server.url());
    await admin.connect();
    await admin.query('CREATE DATABASE storefront');
    await admin.end();
    await server.stop();

    const storefront = await startStorefront({ ...envOn(server.url('storefront')), STOREFRONT_DEMO_DATA: 'true' });
    cleanup.push(() => storefront.close());
    expect(await statusOf(storefront)).to.deep.equal({ status: 503, body: { status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } } });
    const products = await fetch(`${storefront.url}/api/products`);
    expect(products.status).to.equal(503);
    expect(products.headers.get('retry-after')).to.equal('1');
    expect(await products.json()).to.include({ error: 'service_unavailable' });

    await server.start();
    await storefront.ready;
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the status check's cache (at most 1 s old)
    expect(await statusOf(storefront)).to.deep.equal({ status: 200, body: { status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } } });
    expect((await fetch(`${storefront.url}/api/products`)).status).to.equal(200);
  });

  it('stops the process with exit 1 naming DATABASE_URL when the database does not exist', async () => {
    const { code, stderr } = await runMain(envOn(onDatabase(testDatabaseBaseUrl(), 'storefront_no_such_database')));
    expect(code, stderr).to.equal(1);
    expect(stderr).to.match(/^DATABASE_URL: PostgreSQL refuses the store, and retrying will not change that: the database does not exist/m);
  });

  it('stops the process with exit 1 naming DATABASE_URL when the role is refused', async () => {
    const url = new URL(testDatabaseBaseUrl());
    url.username = 'storefront_no_such_role';
    const { code, stderr } = await runMain(envOn(url.toString()));
    expect(code, stderr).to.equal(1);
    expect(stderr).to.match(/^DATABASE_URL: PostgreSQL refuses the store, and retrying will not change that: .*storefront_no_such_role/m);
  });

  it('refuses a database whose schema is newer than the code, and changes nothing in it', async function () {
    const db = await database(this, 'storefront_newer');
    await migrate(db.pool);
    await db.pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [SCHEMA_VERSION + 1]);

    const storefront = await startStorefront(envOn(db.url));
    cleanup.push(() => storefront.close());
    const refusal = await storefront.ready.then(() => undefined, (error: unknown) => error);
    expect(refusal).to.be.instanceOf(ConfigError);
    expect((refusal as ConfigError).issues.map((issue) => issue.variable)).to.deep.equal(['DATABASE_URL']);
    expect((refusal as Error).message).to.equal(
      `DATABASE_URL: the database's schema is version ${SCHEMA_VERSION + 1}, newer than this Storefront knows (${SCHEMA_VERSION}): run the newer Storefront, or point DATABASE_URL at another database`,
    );
    const versions = await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.rows.map((row) => row.version)).to.deep.equal([...Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1), SCHEMA_VERSION + 1]);
  });

  it('migrates once when three instances start together on a new database, and all of them serve', async function () {
    const db = await database(this, 'storefront_together');
    const env = envOn(db.url);
    const instances = await Promise.all([1, 2, 3].map(() => startStorefront(env)));
    for (const instance of instances) cleanup.push(() => instance.close());
    await Promise.all(instances.map((instance) => instance.ready));
    const versions = await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.rows.map((row) => row.version)).to.deep.equal(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    for (const instance of instances) expect((await fetch(`${instance.url}/api/products`)).status).to.equal(200);
  });

  it('storefront db migrate brings a new database to the current schema, then says there is nothing to do', async function () {
    const db = await database(this, 'storefront_cli_migrate');
    const run = (): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [CLI, 'db', 'migrate'], { env: { ...process.env, ...envOn(db.url) }, encoding: 'utf8', timeout: 30_000 });
    const first = run();
    expect(first.status, String(first.stderr)).to.equal(0);
    expect(String(first.stdout)).to.match(new RegExp(`: schema migrated from version 0 to ${SCHEMA_VERSION}\\n$`));
    const again = run();
    expect(again.status).to.equal(0);
    expect(String(again.stdout)).to.match(new RegExp(`: schema already at version ${SCHEMA_VERSION}\\n$`));
    const memory = spawnSync(process.execPath, [CLI, 'db', 'migrate'], { env: { ...process.env, STOREFRONT_STORE: 'memory' }, encoding: 'utf8' });
    expect(memory.status).to.equal(1);
    expect(memory.stderr).to.match(/db migrate applies to the PostgreSQL store: set STOREFRONT_STORE=postgres and DATABASE_URL/);
  });

  it('drains the pool on shutdown: no connection of the service is left on the server', async function () {
    const db = await database(this, 'storefront_drain');
    const storefront = await startStorefront({ ...envOn(db.url), STOREFRONT_DEMO_DATA: 'true' });
    await storefront.ready;
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${storefront.url}/api/products`).then((r) => r.text())));
    const open = (): Promise<number> =>
      db.pool
        .query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'storefront'", [db.name])
        .then((result) => result.rows[0]!.n);
    expect(await open(), 'the service holds connections while it runs').to.be.greaterThan(0);
    await storefront.close();
    // The server lists a backend until its process has exited, a moment after the client said goodbye.
    let left = await open();
    for (let i = 0; i < 20 && left > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await open();
    }
    expect(left, 'connections left 2 s after close()').to.equal(0);
  });
});
