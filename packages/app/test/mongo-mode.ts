/**
 * The store of the end-to-end and reliability servers, chosen by the environment:
 *
 * - no MONGODB_URI: the memory store, as ever (nothing here runs but two counters);
 * - MONGODB_URI answering: every server those suites start (e2e `startServer`/`useServer`,
 *   reliability `startStorefront`/`composeStorefront`) runs STOREFRONT_STORE=mongo on a database
 *   of its own, seeded with the demo data and dropped when the server closes. A suite that cannot
 *   run on MongoDB says so with `memoryOnly(this, reason)` and keeps the memory store;
 * - MONGODB_URI set but not answering: one loud line, and those servers use the memory store.
 *
 * A test that chose its store (STOREFRONT_STORE in its env) gets exactly what it asked for.
 *
 * With STOREFRONT_TEST_STORE=postgres the same servers run on PostgreSQL instead (postgres-mode.ts),
 * with the same memory-only suites and the same tally.
 *
 * Loaded by .mocharc.json as a root hook plugin: it probes MONGODB_URI once before the run and,
 * after a run with MONGODB_URI set, prints how many tests ran against MongoDB and which suites
 * stayed in memory and why.
 */
import { randomBytes } from 'node:crypto';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { MongoClient } from 'mongodb';
import type { Context, Suite } from 'mocha';
import { startStorefront as startStorefrontIn, type RunningStorefront, type StartOptions } from '../src/server.js';
import { postgresDatabase, postgresMode, postgresServerShown, requireTestPostgres, type ServerDatabase } from './postgres-mode.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Shared with packages/adapters-mongo/test/mongo-server.ts, so that a run probes once and says it once. */
const PROBE = Symbol.for('storefront.test.mongodb-probe');
const PROBE_TIMEOUT_MS = 5_000;

function runUri(): string | undefined {
  const uri = process.env['MONGODB_URI']?.trim();
  return uri === undefined || uri === '' ? undefined : uri;
}

/** The URI without its password, for messages. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** null when MongoDB at `uri` answers a ping within 5 s, else why not (said once, loudly). */
export function probeTestMongo(uri: string): Promise<string | null> {
  const global = globalThis as { [PROBE]?: Promise<string | null> };
  global[PROBE] ??= (async () => {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: PROBE_TIMEOUT_MS, connectTimeoutMS: PROBE_TIMEOUT_MS });
    try {
      await client.db('admin').command({ ping: 1 });
      return null;
    } catch (error) {
      const reason = `${(error as Error).name}: ${(error as Error).message.split('\n')[0]}`;
      console.warn(
        `\n  !!! SKIPPING MongoDB mode: MONGODB_URI=${redactUri(uri)} did not answer within ${PROBE_TIMEOUT_MS / 1000} s (${reason}). ` +
          'The end-to-end and reliability suites run on the memory store; the MongoDB adapter suites are skipped.\n',
      );
      return reason;
    } finally {
      await client.close().catch(() => undefined);
    }
  })();
  return global[PROBE];
}

// ---------------------------------------------------------------------------------------------
// Which suites stay in memory, and what ran where

interface MemoryScope {
  readonly suite: string;
  readonly reason: string;
}

/** Memory-only suites whose hooks are running now (innermost last). */
const memoryScopes: MemoryScope[] = [];
const memoryOnlyTally = new Map<string, { reason: string; tests: number }>();
/** Tests that ran against the run's database (MongoDB or PostgreSQL), and its servers. */
let databaseTests = 0;
let databaseServers = 0;
let liveDatabaseServers = 0;
let databaseServerStartedInTest = false;

/**
 * Keeps the servers of this suite (and its nested suites) on the memory store, for a reason the run
 * prints: the suite injects failures into memory adapters or shares one memory store between
 * servers. Call it first in the `describe`, before any hook that starts a server.
 */
export function memoryOnly(suite: Suite, reason: string): void {
  const registered = (suite as unknown as { _beforeAll?: unknown[] })._beforeAll;
  if (registered !== undefined && registered.length > 0) throw new Error(`memoryOnly() must come first in "${suite.fullTitle()}", before its hooks`);
  const scope: MemoryScope = { suite: suite.fullTitle(), reason };
  suite.beforeAll('memory store only', () => {
    memoryScopes.push(scope);
  });
  suite.afterAll('memory store only', () => {
    memoryScopes.splice(memoryScopes.lastIndexOf(scope), 1);
  });
}

// ---------------------------------------------------------------------------------------------
// A database per server

let admin: MongoClient | undefined;
const undropped = new Set<string>();
let databases = 0;

/** `uri` naming `database`, keeping the URI's authSource (which its database path implies when credentials are given). */
export function withDatabase(uri: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/([^?]*))?(?:\?(.*))?$/.exec(uri);
  if (match === null) throw new Error(`MONGODB_URI is not a mongodb:// connection string: ${redactUri(uri)}`);
  const [, hosts, path = '', query = ''] = match;
  const params = query === '' ? [] : query.split('&');
  if (hosts!.includes('@') && !params.some((param) => /^authsource=/i.test(param))) params.push(`authSource=${path === '' ? 'admin' : path}`);
  return `${hosts}/${database}${params.length === 0 ? '' : `?${params.join('&')}`}`;
}

async function dropDatabase(uri: string, name: string): Promise<void> {
  admin ??= new MongoClient(uri, { serverSelectionTimeoutMS: PROBE_TIMEOUT_MS });
  await admin.db(name).dropDatabase();
  undropped.delete(name);
}

export type MongoDatabase = ServerDatabase;

/**
 * A fresh database for a server about to start with `env`, when this run is in postgres or mongo
 * mode and the caller did not choose a store; null when the server should use the memory store.
 */
export async function runDatabaseFor(env: Env): Promise<ServerDatabase | null> {
  if (env['STOREFRONT_STORE'] !== undefined || memoryScopes.length > 0) return null;
  const database = postgresMode() ? await postgresDatabase() : await mongoDatabase();
  if (database === null) return null;
  databaseServers += 1;
  liveDatabaseServers += 1;
  databaseServerStartedInTest = true;
  let released: Promise<void> | undefined;
  return {
    apply: database.apply,
    release: () =>
      (released ??= (async () => {
        liveDatabaseServers -= 1;
        await database.release();
      })()),
  };
}

/** A fresh MongoDB database when MONGODB_URI answers, else null (the memory store). */
async function mongoDatabase(): Promise<MongoDatabase | null> {
  const uri = runUri();
  if (uri === undefined) return null;
  if ((await probeTestMongo(uri)) !== null) return null;
  databases += 1;
  const name = `storefront_test_${process.pid}_${databases}_${randomBytes(3).toString('hex')}`;
  undropped.add(name);
  return {
    apply: (callerEnv) => ({
      STOREFRONT_DEMO_DATA: 'true',
      TOKEN_SECRET_KEY: generateSigningKey(),
      // A variable the caller left undefined does not unset ours.
      ...Object.fromEntries(Object.entries(callerEnv).filter(([, value]) => value !== undefined)),
      STOREFRONT_STORE: 'mongo',
      MONGODB_URI: withDatabase(uri, name),
    }),
    release: () => dropDatabase(uri, name),
  };
}

/**
 * startStorefront in the run's mode. In mongo mode it resolves once the store is connected and
 * seeded (a start-up failure rejects, as in memory mode) and drops the server's database on close.
 */
export async function startStorefrontForRun(env: Env, options: StartOptions = {}): Promise<RunningStorefront> {
  const database = await runDatabaseFor(env);
  if (database === null) return startStorefrontIn(env, options);
  let running: RunningStorefront;
  try {
    running = await startStorefrontIn(database.apply(env), options);
  } catch (error) {
    await database.release();
    throw error;
  }
  try {
    await running.ready;
  } catch (error) {
    await running.close();
    await database.release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...running,
    close: () => (closing ??= running.close().then(() => database.release())),
  };
}

// ---------------------------------------------------------------------------------------------
// The root hooks

export const mochaHooks = {
  async beforeAll(this: Context): Promise<void> {
    if (postgresMode()) {
      this.timeout(15_000);
      return requireTestPostgres();
    }
    const uri = runUri();
    if (uri === undefined) return;
    this.timeout(PROBE_TIMEOUT_MS + 5_000);
    await probeTestMongo(uri);
  },
  beforeEach(): void {
    databaseServerStartedInTest = false;
  },
  afterEach(this: Context): void {
    const test = this.currentTest;
    if (test === undefined || test.isPending()) return;
    if (liveDatabaseServers > 0 || databaseServerStartedInTest) {
      databaseTests += 1;
    } else if (memoryScopes.length > 0) {
      const scope = memoryScopes[0]!;
      const entry = memoryOnlyTally.get(scope.suite) ?? { reason: scope.reason, tests: 0 };
      entry.tests += 1;
      memoryOnlyTally.set(scope.suite, entry);
    }
  },
  async afterAll(this: Context): Promise<void> {
    const memoryOnlyTests = [...memoryOnlyTally.values()].reduce((sum, entry) => sum + entry.tests, 0);
    const memoryOnlyLines = [...memoryOnlyTally].map(([suite, entry]) => `  - ${suite} (${entry.tests}): ${entry.reason}`);
    if (postgresMode()) {
      const head = `PostgreSQL mode: ${databaseTests} end-to-end and reliability tests ran against PostgreSQL at ${postgresServerShown()} (${databaseServers} servers, a fresh database each); ${memoryOnlyTests} stayed on the memory store${memoryOnlyLines.length > 0 ? ':' : '.'}`;
      console.log(`\n  ${[head, ...memoryOnlyLines].join('\n  ')}\n`);
      return;
    }
    const uri = runUri();
    if (uri === undefined) return;
    this.timeout(60_000);
    for (const name of undropped) await dropDatabase(uri, name).catch(() => undefined);
    await admin?.close();
    const skipped = (await probeTestMongo(uri)) !== null;
    const lines = [
      skipped
        ? `MongoDB mode: skipped (MONGODB_URI did not answer); 0 tests ran against MongoDB.`
        : `MongoDB mode: ${databaseTests} end-to-end and reliability tests ran against MongoDB at ${redactUri(uri)} (${databaseServers} servers, a fresh database each); ${memoryOnlyTests} stayed on the memory store:`,
      ...(skipped ? [] : memoryOnlyLines),
    ];
    console.log(`\n  ${lines.join('\n  ')}\n`);
  },
};
