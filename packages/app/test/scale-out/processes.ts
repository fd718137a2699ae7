/**
 * Real processes for the scale-out tests: Storefront instances started from the built entry point
 * (`node dist/src/main.js`, as `pnpm start` does) and a private redis-server that a test may kill
 * and restart without touching the machine's shared Redis.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface Instance {
  readonly url: string;
  /** Whether the process is still running (it has not exited, crashed or been killed). */
  running(): boolean;
  /** What it logged (stdout and stderr) above `level` (pino's numbers: 40 warn), for a failure message. */
  logged(level?: number): string;
  stop(): Promise<void>;
}

/** Starts one Storefront process and resolves once it logged its start-up line. */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SCRYPT_LOG_N: '10', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => fail(new Error(`no start-up line within 15 s:\n${buffered}`)), 15_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`instance exited with ${code}:\n${buffered}`)));
    child.stderr!.on('data', (chunk: Buffer) => (buffered += chunk.toString()));
    let started = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      // Kept after the start too, for a test's failure message (bounded: the newest half kept).
      buffered += chunk.toString();
      if (buffered.length > 1_000_000) buffered = buffered.slice(-500_000);
      if (started) return;
      const line = buffered.split('\n').find((l) => l.includes('"storefront started"'));
      if (line === undefined) return;
      started = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: (JSON.parse(line) as { url: string }).url,
        running: () => child.exitCode === null && child.signalCode === null,
        logged: (level = 0) => buffered.split('\n').filter((l) => l !== '' && levelOf(l) >= level).join('\n'),
        stop: () => stopChild(child),
      });
    });
  });
}

/** A pino line's level; anything else (a stack trace on stderr) counts as an error. */
function levelOf(line: string): number {
  try {
    return (JSON.parse(line) as { level?: number }).level ?? 50;
  } catch {
    return 50;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  // Exited, or killed by a signal (then exitCode stays null).
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export interface PrivateRedis {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill would: nothing is flushed on the way out. */
  kill(): Promise<void>;
}

export interface PrivateRedisOptions {
  /**
   * Keep the data in this directory, as a production Redis would: the append-only file, fsynced
   * on every write, so that a server killed and started again comes back with every acknowledged
   * write. Without it nothing is kept on disk.
   */
  readonly persistDir?: string;
}

/** A redis-server on a free loopback port (the same one on every start). */
export async function privateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const persistence =
    options.persistDir === undefined
      ? ['--save', '', '--appendonly', 'no']
      : ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.persistDir];
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
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
    stop: () => (child === undefined ? Promise.resolve() : stopChild(child)),
    kill: () => {
      const killed = child;
      if (killed === undefined || killed.exitCode !== null || killed.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        killed.once('exit', () => resolve());
        killed.kill('SIGKILL');
      });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
