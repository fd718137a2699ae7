/**
 * A redis-server child of the test on a free loopback port (the same one on every start), that a
 * test may stop, kill and start again: what a Redis restart, crash or OOM kill looks like to the
 * adapters and to the instances, without touching the machine's shared Redis.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import type { Context } from 'mocha';

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Resolves once the server accepts connections; rejects when it exits (or cannot run) first. */
  start(): Promise<void>;
  /** SIGTERM: a clean shutdown. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill would: nothing is flushed on the way out. */
  kill(): Promise<void>;
}

export interface PrivateRedisOptions {
  /**
   * Keep the data in this directory, as a production Redis would: the append-only file, fsynced
   * on every write, so that a server killed and started again comes back with every acknowledged
   * write. Without it nothing is kept on disk, and a killed server comes back empty.
   */
  readonly persistDir?: string;
}

/** Whether a redis-server binary is on the PATH (a test without one skips, saying why). */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * In a `before` hook (`this`): skips the suite, saying so loudly, when there is no redis-server
 * binary to run; a quiet skip would read as a pass.
 */
export function skipWithoutRedisServer(context: Context, what: string): void {
  if (hasRedisServer()) return;
  console.warn(`\n  !!! SKIPPING ${what}: no redis-server binary on the PATH to start a private Redis.\n`);
  context.skip();
}

/** In a `before` hook (`this`): a private Redis, started; or the suite skipped loudly without a redis-server binary. */
export async function startPrivateRedisOrSkip(context: Context, what: string, options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  skipWithoutRedisServer(context, what);
  const redis = await privateRedis(options);
  await redis.start();
  return redis;
}

/** A redis-server on a free loopback port; not started until `start()`. */
export async function privateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const persistence =
    options.persistDir === undefined
      ? ['--save', '', '--appendonly', 'no']
      : ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.persistDir];
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: () =>
      new Promise((resolve, reject) => {
        const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...persistence], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        child = started;
        let output = '';
        const exited = (code: number | null): void => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
        started.once('error', reject);
        started.once('exit', exited);
        started.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (!output.includes('Ready to accept connections')) return;
          started.off('exit', exited);
          started.stdout!.removeAllListeners('data');
          started.stdout!.resume();
          resolve();
        });
      }),
    stop: () => signal(child, 'SIGTERM'),
    kill: () => signal(child, 'SIGKILL'),
  };
}

/** Sends `sig` and resolves once the child has exited (at once when it is not running). */
function signal(child: ChildProcess | undefined, sig: NodeJS.Signals): Promise<void> {
  // Exited, or killed by a signal (then exitCode stays null).
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(sig);
  });
}

/** A loopback TCP port that nothing listens on (at the time of asking). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Whether a Redis answers PING at `url` within `timeoutMs` (a raw socket: no client to set up or close). */
export function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data: Buffer) => done(data.toString().startsWith('+PONG')));
  });
}
