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
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.includes('"storefront started"'));
      if (line === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url: (JSON.parse(line) as { url: string }).url, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
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
}

/** A redis-server on a free loopback port, keeping nothing on disk. */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    start: () =>
      new Promise((resolve, reject) => {
        child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        child.once('error', reject);
        child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Ready to accept connections')) resolve();
        });
      }),
    stop: () => (child === undefined ? Promise.resolve() : stopChild(child)),
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
