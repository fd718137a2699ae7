/**
 * The packages another team embeds (@storefront/domain, @storefront/adapters-memory,
 * @storefront/adapters-crypto, and @storefront/adapter-support that adapters-memory depends on), got the way that team gets them: `pnpm pack` here, `npm install` of
 * the tarballs into an empty project, the Embedding snippet of the installed domain README copied
 * verbatim (it imports the package root only), type-checked with `tsc --strict` and run, beside the
 * README's adapter snippet (the root's ports, adapter-kit's helpers), type-checked. Nothing in that project points back into this
 * repository; only the `tsc` binary is borrowed from it. Needs the build (`tsc -b`) and the npm
 * registry (for paseto, scrypt-kdf and @types/node); without the registry it skips with a warning.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const PACKAGES = ['domain', 'adapter-support', 'adapters-memory', 'adapters-crypto'] as const;
type Embeddable = (typeof PACKAGES)[number];
const ROOT_ENTRY = { types: './dist/src/index.d.ts', default: './dist/src/index.js' };
/** The domain's two entry points: what an embedder uses, and what adapter authors share. */
const DOMAIN_ENTRIES = { '.': ROOT_ENTRY, './adapter-kit': { types: './dist/src/adapter-kit.d.ts', default: './dist/src/adapter-kit.js' } };
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;
/** How npm says it could not reach the registry (as opposed to refusing what it was given). */
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT)\b/;

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Record<string, { types?: string; default?: string }>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const packageDir = (pkg: string): string => join(ROOT, 'packages', pkg);

/** What a package's tarball must hold: the .js and .d.ts of each of its sources, its manifest, README and licence. */
function expectedFiles(pkg: Embeddable): string[] {
  const dir = packageDir(pkg);
  const sources = readdirSync(join(dir, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.split(sep).join('/').slice(0, -'.ts'.length));
  const extras = ['package.json', 'README.md', 'LICENSE'].filter((file) => existsSync(join(dir, file)));
  return [...extras, ...sources.flatMap((source) => [`dist/src/${source}.js`, `dist/src/${source}.d.ts`])].sort();
}

async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { timeout: 10_000 });
  return stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/')).map((line) => line.replace(/^package\//, '')).sort();
}

async function packedManifest(tarball: string): Promise<Manifest> {
  const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json'], { timeout: 10_000 });
  return JSON.parse(stdout) as Manifest;
}

/** The first ```ts block of the README section `heading` (a `## ` line), as written. */
function readmeSnippet(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, `a "${heading}" section`).to.be.at.least(0);
  const end = readme.indexOf('\n## ', start + 1);
  const snippet = /```ts\n([\s\S]*?)```/.exec(readme.slice(start, end === -1 ? undefined : end))?.[1];
  if (snippet === undefined) throw new Error(`no \`\`\`ts block under "${heading}"`);
  return snippet;
}

/** The modules a snippet imports from. */
const importedModules = (snippet: string): string[] => [...snippet.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);

/** A team's shell: the registry, proxy and cache this machine is set up with, none of the npm_* settings `pnpm test` hands down. */
function teamEnv(): NodeJS.ProcessEnv {
  const kept = /^npm_config_(registry|cache|userconfig|https?_proxy|proxy|no_?proxy|strict_ssl|cafile)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^p?npm_/i.test(name) || kept.test(name)));
}

function failure(error: unknown): string {
  const { stdout = '', stderr = '', message = String(error) } = error as { stdout?: string; stderr?: string; message?: string };
  return `${message}\n${stdout}${stderr}`;
}

describe('the embeddable packages, packed and installed as another team would', function () {
  this.timeout(180_000);
  let work = '';
  const tarballs = new Map<Embeddable, string>();
  const tarball = (pkg: Embeddable): string => tarballs.get(pkg) ?? expect.fail(`no tarball of ${pkg}`);

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'storefront-packaging-'));
    const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';
    await Promise.all(
      PACKAGES.map(async (pkg) => {
        const destination = join(work, 'packs', pkg);
        mkdirSync(destination, { recursive: true });
        await run(pnpm, ['pack', '--pack-destination', destination], { cwd: packageDir(pkg), timeout: 30_000 });
        const [file, ...others] = readdirSync(destination);
        expect(others, `one tarball for ${pkg}`).to.deep.equal([]);
        tarballs.set(pkg, join(destination, file!));
      }),
    );
  });

  after(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it('packs each package as its compiled sources only: a .js and a .d.ts per source file, no tests, maps or TypeScript', async () => {
    for (const pkg of PACKAGES) {
      expect(await tarballFiles(tarball(pkg)), `files in the tarball of ${pkg}`).to.deep.equal(expectedFiles(pkg));
    }
  });

  it('packs installable manifests: not private, workspace versions made real, no test-only package a consumer would need', async () => {
    for (const pkg of PACKAGES) {
      const source = readJson<Manifest>(join(packageDir(pkg), 'package.json'));
      const packed = await packedManifest(tarball(pkg));
      expect(packed.private, `${pkg} is publishable`).to.equal(undefined);
      const entries = pkg === 'domain' ? DOMAIN_ENTRIES : { '.': ROOT_ENTRY };
      expect(packed.exports, `${pkg} exports`).to.deep.equal(entries);
      for (const field of DEPENDENCY_FIELDS) {
        const real = Object.fromEntries(
          Object.entries(source[field] ?? {}).map(([name, range]) => [
            name,
            range.startsWith('workspace:') ? readJson<Manifest>(join(packageDir(name.replace('@storefront/', '')), 'package.json')).version : range,
          ]),
        );
        expect(packed[field] ?? {}, `${pkg} ${field}`).to.deep.equal(real);
      }
      // devDependencies are never installed for a dependency; anything a consumer installs must exist outside this repository.
      const installed = { ...packed.dependencies, ...packed.peerDependencies, ...packed.optionalDependencies };
      expect(Object.keys(installed), `${pkg} runtime dependencies`).to.not.include('@storefront/testing');
    }
  });

  it('installs with npm into an empty project, where the Embedding snippet of the domain README (the root entry only) type-checks under tsc --strict and runs, and its adapter snippet (adapter-kit) type-checks', async function () {
    const team = join(work, 'team');
    mkdirSync(team);
    writeFileSync(join(team, 'package.json'), JSON.stringify({ name: 'team', private: true, type: 'module' }));
    // The @types/node this repository builds with: what a Node team has next to its code.
    const typesNode = `@types/node@${readJson<Manifest>(join(ROOT, 'node_modules', '@types', 'node', 'package.json')).version}`;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // One quick retry: an unreachable registry is reported in seconds, not after npm's minutes of back-off.
    const retries = ['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=5000', '--fetch-timeout=20000'];
    const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', ...retries];
    try {
      await run(npm, [...install, ...PACKAGES.map(tarball), typesNode], { cwd: team, env: teamEnv(), timeout: 120_000 });
    } catch (error) {
      const reason = UNREACHABLE.exec(failure(error))?.[1];
      if (reason === undefined) throw new Error(`npm install of the tarballs failed: ${failure(error)}`);
      console.warn(`      SKIPPED: the npm registry is unreachable (${reason}); the packed packages were not installed and the README snippet did not run`);
      this.skip();
    }
    expect(existsSync(join(team, 'node_modules', '@storefront', 'testing')), 'test helpers installed').to.equal(false);

    const readme = readFileSync(join(team, 'node_modules', '@storefront', 'domain', 'README.md'), 'utf8');
    const embedding = readmeSnippet(readme, '## Embedding');
    const adapter = readmeSnippet(readme, '## Two entry points');
    // An embedder needs the root alone; an adapter author takes ports from the root, records from the kit, helpers from adapter-support.
    expect(importedModules(embedding).filter((name) => name.startsWith('@storefront/domain'))).to.deep.equal(['@storefront/domain']);
    expect(importedModules(adapter)).to.have.members(['@storefront/domain', '@storefront/domain/adapter-kit', '@storefront/adapter-support']);
    writeFileSync(join(team, 'main.ts'), embedding);
    writeFileSync(join(team, 'adapter.ts'), adapter);
    // One tsc run type-checks and, only when nothing is wrong, emits the JavaScript that runs below.
    const strict = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--noEmitOnError', '--outDir', 'out', 'main.ts', 'adapter.ts'];
    await run(process.execPath, [TSC, ...strict], { cwd: team, timeout: 60_000 }).catch((error: unknown) => {
      throw new Error(`tsc --strict failed on the README snippets: ${failure(error)}`);
    });

    const { stdout, stderr } = await run(process.execPath, [join(team, 'out', 'main.js')], { cwd: team, timeout: 20_000 });
    expect(stderr).to.equal('');
    const [placed, refused] = stdout.trim().split('\n');
    expect(placed).to.match(/^ord_[0-9a-z]+ \d+ USD 1$/);
    expect(refused).to.match(/^unknown_product \[/);
  });
});
