#!/usr/bin/env node
/**
 * `npm start` and `npm test` on a machine with only Node.js: fetches the pinned pnpm (the root
 * package.json's `packageManager`) into `.tools/` of this clone, never globally; installs the
 * workspace's dependencies when they are missing or stale; then runs a root script with it.
 *
 *   node scripts/bootstrap.mjs <script> [args…]   # e.g. serve, test:all
 *   node scripts/bootstrap.mjs                    # install only
 *
 * Plain Node, no dependencies. Run by pnpm (`pnpm start`), it uses that pnpm when it is the
 * pinned version. Reasoning: docs/decisions.md "Two commands".
 */
import { spawnSync, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const pnpmVersion = /^pnpm@([\w.+-]+)$/.exec(manifest.packageManager ?? '')?.[1];
if (pnpmVersion === undefined) throw new Error(`package.json: "packageManager" must be pnpm@<version>, got ${manifest.packageManager}`);

/** The pnpm to run, as [command, ...leading args]. */
export function pnpm() {
  const execpath = process.env.npm_execpath;
  const agent = process.env.npm_config_user_agent ?? '';
  if (execpath !== undefined && agent.startsWith(`pnpm/${pnpmVersion} `) && existsSync(execpath)) return [process.execPath, execpath];
  const dir = join(root, '.tools', `pnpm-${pnpmVersion}`);
  const cli = join(dir, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(cli)) {
    mkdirSync(dir, { recursive: true });
    log(`fetching pnpm ${pnpmVersion} into .tools/ (for this clone only)`);
    // npm sits next to node; run its CLI with this node so that PATH does not matter.
    const npm = npmCli();
    run(npm[0], [...npm.slice(1), 'install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund',
      '--no-update-notifier', '--loglevel=error', `pnpm@${pnpmVersion}`]);
  }
  return [process.execPath, cli];
}

/**
 * The environment of what runs under it: `.tools/bin` (a `pnpm` that runs the fetched one) first on
 * PATH, since scripts and tests call `pnpm` by name; no update notice for a pinned version.
 */
export function childEnv() {
  const [, cli] = pnpm();
  const bin = join(root, '.tools', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(join(bin, 'pnpm'), 0o755);
  writeFileSync(join(bin, 'pnpm.cmd'), `@"${process.execPath}" "${cli}" %*\r\n`);
  const pathKey = Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...process.env, [pathKey]: `${bin}${delimiter}${process.env[pathKey] ?? ''}`, npm_config_update_notifier: 'false' };
}

/** `pnpm install --frozen-lockfile [flags]` unless the last one had the same inputs. */
export function install(flags = []) {
  const stamp = join(root, 'node_modules', '.storefront-install');
  const inputs = installInputs(flags);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs) return;
  log(existsSync(join(root, 'node_modules')) ? 'dependencies changed: installing' : 'installing dependencies');
  const [command, ...args] = pnpm();
  // Switching between --prod and a full install empties node_modules first: pnpm would ask at a terminal, and fail without one.
  run(command, [...args, 'install', '--frozen-lockfile', '--config.confirm-modules-purge=false', ...flags], { env: childEnv() });
  writeFileSync(stamp, inputs);
}

/** What an install depends on: the lockfile, every workspace manifest, pnpm's settings and version, the flags. */
function installInputs(flags) {
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'package.json',
    ...readdirSync(join(root, 'packages')).map((name) => join('packages', name, 'package.json'))];
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${existsSync(join(root, file)) ? readFileSync(join(root, file)) : ''}\0`);
  return `pnpm ${pnpmVersion} ${[...flags, hash.digest('hex')].join(' ')}\n`;
}

function npmCli() {
  const dirs = [join(process.execPath, '..', 'node_modules', 'npm'), join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm')];
  const found = dirs.map((dir) => join(dir, 'bin', 'npm-cli.js')).find((file) => existsSync(file));
  return found === undefined ? ['npm'] : [process.execPath, found];
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function log(message) {
  process.stderr.write(`storefront: ${message}\n`);
}

/** Runs `pnpm run <script>`, passing signals on so that Ctrl-C and SIGTERM stop the service gracefully. */
function main([script, ...args]) {
  install();
  if (script === undefined) return;
  const [command, ...pre] = pnpm();
  const child = spawn(command, [...pre, 'run', script, ...args], { cwd: root, stdio: 'inherit', env: childEnv() });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
