/**
 * Real processes for the scale-out tests: Storefront instances started from the built entry point
 * (`node dist/src/main.js`, as `pnpm start` does). The private redis-server they share is
 * `privateRedis` of @storefront/testing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
