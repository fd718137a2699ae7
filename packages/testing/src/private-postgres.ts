/**
 * A PostgreSQL server of the test's own (initdb + pg_ctl, a temporary directory, a free loopback
 * port) that a test may stop and start: a database outage without touching the shared server.
 * initdb refuses root, so as root every command runs as the `postgres` system user. Trust
 * authentication, loopback only; fsync off (it guards only against an OS crash, which no test
 * simulates).
 */
import { execFileSync, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'mocha';
import { freePort } from './private-redis.js';

export interface PrivatePostgres {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> (default `postgres`). */
  url(database?: string): string;
  /** Starts the server (again) and resolves once it accepts connections. */
  start(): Promise<void>;
  /** A fast shutdown: open connections are terminated, committed data kept. */
  stop(): Promise<void>;
  /** Stops the server (immediately) and removes its directory. */
  destroy(): Promise<void>;
}

/** The bin directory of the newest PostgreSQL installed under /usr/lib/postgresql, if any. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0]!, 'bin');
}

/** In a `before` hook: a private server, started; or the suite skipped loudly without the binaries. */
export async function startPrivatePostgresOrSkip(context: Context, what: string): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (bin === undefined) {
    console.warn(`\n  !!! SKIPPING ${what}: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin to run a private server.\n`);
    context.skip();
  }
  const server = await privatePostgres(bin!);
  await server.start();
  return server;
}

/** Every private server of this process, stopped if the process exits without destroying them. */
const live = new Set<() => void>();
process.once('exit', () => {
  for (const stop of live) stop();
});

/** A fresh cluster (initdb) on a free loopback port; not started until `start()`. */
export async function privatePostgres(bin: string = postgresBinDir() ?? '/usr/lib/postgresql/15/bin'): Promise<PrivatePostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'storefront-pg-'));
  const data = join(dir, 'data');
  const asUser = runAs();
  if (asUser.uid !== undefined) chownSync(dir, asUser.uid, asUser.gid!);
  const run = (tool: string, args: readonly string[]): void => {
    const result = spawnSync(join(bin, tool), args, { ...asUser, encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}${result.error?.message ?? ''}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const immediateStop = (): void => {
    spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...asUser, stdio: 'ignore' });
  };
  live.add(immediateStop);
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']),
    stop: async () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']),
    destroy: async () => {
      immediateStop();
      live.delete(immediateStop);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** As root: the `postgres` system user (initdb will not run as root); else the current user. */
function runAs(): Pick<SpawnSyncOptions, 'uid' | 'gid'> {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
