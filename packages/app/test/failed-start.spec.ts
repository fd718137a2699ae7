/**
 * A start that fails after the container opened its clients releases them: an embedding process
 * (here a child `node` that calls startStorefront and catches the error) exits on its own instead of
 * lingering on the Redis client or the order event relay.
 */
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { describe, it } from 'mocha';

const SERVER = new URL('../src/server.js', import.meta.url).href;

/** Runs `script` (an ES module) in a child; resolves with its output and exit code, or null if still running after `ms`. */
function runChild(script: string, ms: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, output });
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts on a port the child itself holds (unref'd: the holder never keeps the child alive). */
const startOnTakenPort = (env: Record<string, string>): string => `
  import net from 'node:net';
  import { startStorefront } from ${JSON.stringify(SERVER)};
  const taken = net.createServer();
  await new Promise((resolve) => taken.listen(0, '127.0.0.1', resolve));
  taken.unref();
  const env = { PORT: String(taken.address().port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10', ...${JSON.stringify(env)} };
  await startStorefront(env).then(
    () => console.log('started'),
    (error) => console.log('rejected: ' + error.message),
  );
`;

describe('A failed start', () => {
  it('releases the Redis client and the relay when PORT is taken: the process exits on its own', async function () {
    this.timeout(20_000);
    const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    const { code, output } = await runChild(startOnTakenPort({ REDIS_URL: redisUrl }), 12_000);
    expect(output).to.match(/^rejected: PORT \d+ cannot be used on HOST 127\.0\.0\.1: the address is already in use$/m);
    expect(code, `still running 12 s after the failed start:\n${output}`).to.equal(0);
  });
});
