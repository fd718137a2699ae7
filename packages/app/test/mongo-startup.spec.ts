/**
 * `pnpm start` with the mongo store, as a real process (node dist/src/main.js): a MONGODB_URI that
 * can never work stops it with exit code 1 and a message naming MONGODB_URI, whether the problem
 * shows at once (a database name MongoDB refuses) or once MongoDB answers (a refused login, from the
 * stand-in server of mongo-wire-fake.ts); an unreachable MongoDB does not: the server keeps
 * listening, says so on /api/status and keeps retrying. No MongoDB needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import { startFakeMongod, type FakeMongod } from './mongo-wire-fake.js';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

interface Started {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code, or null if the process is still running after `ms`. */
  exit(ms: number): Promise<number | null>;
  /** Resolves with the listening URL once the start-up line is logged. */
  listening(): Promise<string>;
}

function startMain(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env['PATH'] ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SCRYPT_LOG_N: '10',
      STOREFRONT_STORE: 'mongo',
      TOKEN_SECRET_KEY: generateSigningKey(),
      MONGODB_TIMEOUT_MS: '500',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return {
    child,
    output: () => output,
    exit: (ms) => Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]),
    listening: async () => {
      for (let waited = 0; waited < 15_000; waited += 25) {
        const line = output.split('\n').find((l) => l.includes('"storefront started"'));
        if (line !== undefined) return (JSON.parse(line) as { url: string }).url;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no start-up line:\n${output}`);
    },
  };
}

describe('pnpm start with STOREFRONT_STORE=mongo', function () {
  this.timeout(30_000);
  let started: Started | undefined;
  let fake: FakeMongod | undefined;

  afterEach(async () => {
    if (started !== undefined && started.child.exitCode === null) {
      started.child.kill('SIGKILL');
      await started.exit(5_000);
    }
    await fake?.close();
    started = undefined;
    fake = undefined;
  });

  it('exits 1 at once, naming MONGODB_URI, when the URI names a database MongoDB refuses (no server needed)', async () => {
    started = startMain({ MONGODB_URI: 'mongodb://127.0.0.1:1/bad$name' });
    expect(await started.exit(15_000), started.output()).to.equal(1);
    expect(started.output()).to.include('storefront: configuration error\nMONGODB_URI cannot be used: it names the database "bad$name"');
    expect(started.output()).not.to.include('storefront started');
  });

  it('exits 1, naming MONGODB_URI, once MongoDB refuses the login (18 AuthenticationFailed), without printing the password', async () => {
    fake = await startFakeMongod();
    started = startMain({ MONGODB_URI: fake.uri('storefront', '', 'app:s3cret-pw') });
    expect(await started.exit(15_000), started.output()).to.equal(1);
    const output = started.output();
    expect(output).to.include('storefront: configuration error\nMONGODB_URI: MongoDB refuses the store, and retrying will not change that: AuthenticationFailed (code 18)');
    expect(output).to.include('check the user name, password, authSource and roles in MONGODB_URI');
    expect(output).not.to.include('s3cret-pw');
    expect(fake.commands.filter((c) => c.name === 'saslstart'), 'login attempts: one, no retry').to.have.length(1);
  });

  it('keeps running while MongoDB cannot be reached: it listens, /api/status answers 503 with the store down, and SIGTERM still stops it with 0', async () => {
    started = startMain({ MONGODB_URI: 'mongodb://127.0.0.1:1/storefront' });
    const url = await started.listening();
    const status = await fetch(`${url}/api/status`);
    expect(status.status).to.equal(503);
    expect(((await status.json()) as { checks: { store: string } }).checks.store).to.equal('down');
    // Several attempts (0.5 s each, then 0.25 s, 0.5 s, 1 s apart) and it is still there.
    expect(await started.exit(3_000), started.output()).to.equal(null);
    expect(started.output().match(/MongoDB is not reachable yet; retrying/g)?.length ?? 0).to.be.at.least(2);
    started.child.kill('SIGTERM');
    expect(await started.exit(15_000)).to.equal(0);
  });
});
