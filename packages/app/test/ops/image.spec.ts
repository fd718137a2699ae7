/**
 * The container image, without a container engine: the Dockerfile's build command
 * (scripts/image-build.mjs) run in a clean copy of the repository's files, then its CMD run with its
 * ENV from the result, must give a service that answers /api/status and stops cleanly on SIGTERM,
 * with no development dependency. The pnpm store is used offline where it can be.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
/** Continuation lines joined: one instruction a line. */
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
/** The final stage: what follows the last FROM. */
const RUNTIME = DOCKERFILE.slice(DOCKERFILE.lastIndexOf('\nFROM '));
const BUILD_STEP = 'RUN node scripts/image-build.mjs /app';

function instruction(stage: string, name: string): string {
  const line = stage.split('\n').find((text) => text.startsWith(`${name} `));
  if (line === undefined) throw new Error(`the Dockerfile's last stage has no ${name}`);
  return line.slice(name.length + 1);
}

/** `ENV A=1 B=2` of the final stage. */
function runtimeEnv(): Record<string, string> {
  return Object.fromEntries(instruction(RUNTIME, 'ENV').split(/\s+/).map((pair) => pair.split('=') as [string, string]));
}

describe('The container image, built and started as the Dockerfile does', function () {
  this.timeout(300_000);
  let work: string;
  let app: string;
  let service: ChildProcess | undefined;
  let port: number;
  let exit: Promise<number | null>;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'storefront-image-'));
    const source = join(work, 'src');
    // The build context: the repository's files as a clone has them (.dockerignore leaves out the rest).
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)))) {
      mkdirSync(dirname(join(source, file)), { recursive: true });
      cpSync(join(ROOT, file), join(source, file));
    }
    // The pnpm already fetched here, if any, rather than the registry again (the image fetches its own).
    for (const tool of existsSync(join(ROOT, '.tools')) ? readdirSync(join(ROOT, '.tools')).filter((name) => name.startsWith('pnpm-')) : []) {
      cpSync(join(ROOT, '.tools', tool), join(source, '.tools', tool), { recursive: true, verbatimSymlinks: true });
    }
    app = join(work, 'app');
    const [command, ...args] = BUILD_STEP.slice('RUN '.length).replace(/ \/app$/, ` ${app}`).split(' ') as [string, ...string[]];
    await run(command === 'node' ? process.execPath : command, args, {
      cwd: source,
      env: { ...process.env, npm_config_prefer_offline: 'true', CI: 'true' },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 280_000,
    });
  });

  after(async () => {
    if (service?.exitCode === null) service.kill('SIGKILL');
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('builds with scripts/image-build.mjs and runs on a slim Node as a non-root user', () => {
    expect(DOCKERFILE.split('\n')).to.include(BUILD_STEP);
    expect(DOCKERFILE).to.match(/^ARG NODE_IMAGE=node:\d+[\w.-]*-slim$/m);
    expect(instruction(RUNTIME, 'USER')).to.equal('node');
    expect(instruction(RUNTIME, 'COPY')).to.equal('--from=build /app /app');
  });

  it('holds the built service and production dependencies only', () => {
    expect(existsSync(join(app, 'packages', 'app', 'dist', 'src', 'main.js'))).to.equal(true);
    expect(existsSync(join(app, 'packages', 'app', 'src')), 'sources').to.equal(false);
    expect(existsSync(join(app, 'packages', 'app', 'dist', 'test')), 'compiled tests').to.equal(false);
    const installed = readdirSync(join(app, 'node_modules', '.pnpm'));
    // (typescript stays: an optional peer of i18next, under opening_hours, that the lockfile resolves.)
    for (const dev of ['mocha@', 'chai@', 'playwright-core@', 'smtp-server@']) {
      expect(installed.filter((name) => name.startsWith(dev)), dev).to.deep.equal([]);
    }
    expect(installed.some((name) => name.startsWith('pg@'))).to.equal(true);
  });

  it('starts with the CMD and ENV of the Dockerfile and answers GET /api/status', async () => {
    const [command, ...args] = JSON.parse(instruction(RUNTIME, 'CMD')) as [string, ...string[]];
    expect(command).to.equal('node');
    service = spawn(process.execPath, args, {
      cwd: app,
      // Nothing of this machine's environment but PATH: the container's own, with an ephemeral port.
      env: { PATH: process.env['PATH'] ?? '', ...runtimeEnv(), PORT: '0', HOST: '127.0.0.1', SCRYPT_LOG_N: '10' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exit = new Promise((resolve) => service?.on('exit', (code) => resolve(code)));
    port = await new Promise<number>((resolve, reject) => {
      let output = '';
      service?.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const started = output.split('\n').find((line) => line.includes('"storefront started"'));
        if (started !== undefined) resolve((JSON.parse(started) as { port: number }).port);
      });
      service?.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      service?.on('exit', (code) => reject(new Error(`the service exited ${code} before it started:\n${output}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}/api/status`);
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.include({ status: 'ok' });
  });

  it('checks its health on /api/status and stops with status 0 on the STOPSIGNAL', async () => {
    expect(instruction(RUNTIME, 'HEALTHCHECK')).to.include('/api/status');
    const signal = instruction(RUNTIME, 'STOPSIGNAL') as NodeJS.Signals;
    expect(signal).to.equal('SIGTERM');
    expect(service?.exitCode, 'the service of the previous test is running').to.equal(null);
    service?.kill(signal);
    expect(await exit).to.equal(0);
  });
});
