/**
 * A redis-server child of the test on a free loopback port, without persistence, that a test may
 * kill and start again (on the same port): what a Redis crash and restart look like to the adapters.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** SIGKILL, as a crash would: without persistence, the data is gone. */
  kill(): Promise<void>;
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: () =>
      new Promise((resolve, reject) => {
        const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
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
