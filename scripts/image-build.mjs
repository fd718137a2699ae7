#!/usr/bin/env node
/**
 * The container image's build, run by the Dockerfile's build stage and, in a clean copy of the
 * repository, by packages/app/test/ops/image.spec.ts: installs with the pinned pnpm (frozen
 * lockfile), builds, drops the development dependencies and copies what the service runs from to
 * <out> (default `.image/`). The Dockerfile's CMD starts it from there.
 *
 *   node scripts/image-build.mjs [out]
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { childEnv, install, pnpm, root, run } from './bootstrap.mjs';

const out = resolve(process.argv[2] ?? join(root, '.image'));
install();
const [command, ...args] = pnpm();
run(command, [...args, 'run', 'build'], { env: childEnv() });
// Afresh rather than pruned: `pnpm install --prod` over a full install leaves the dev packages in node_modules/.pnpm.
for (const dir of ['.', ...readdirSync(join(root, 'packages')).map((name) => join('packages', name))]) rmSync(join(root, dir, 'node_modules'), { recursive: true, force: true });
// The service's packages only: @storefront/testing (a dev dependency) would bring mocha and chai.
install(['--prod', '--filter', '@storefront/app...', '--filter', '!@storefront/testing']);

/** Sources, tests, tools and CI: not needed to run, and the image is smaller and says less without them. */
const LEFT_OUT = new Set(['.git', '.tools', '.ci', '.image', 'bench', 'examples', 'docs/images', 'packages/testing']);
const leftOut = (path) => {
  const rel = relative(root, path).split(sep).join('/');
  if (LEFT_OUT.has(rel) || rel.endsWith('.tsbuildinfo')) return true;
  const [top, , dir, sub] = rel.split('/');
  return top === 'packages' && (dir === 'test' || dir === 'src' || (dir === 'dist' && sub === 'test'));
};
rmSync(out, { recursive: true, force: true });
cpSync(root, out, { recursive: true, verbatimSymlinks: true, filter: (path) => !leftOut(path) });
for (const name of readdirSync(join(out, 'packages')).filter((name) => name !== 'testing')) {
  if (!existsSync(join(out, 'packages', name, 'dist', 'src'))) throw new Error(`packages/${name} has no dist/src: the build did not run`);
}
process.stderr.write(`storefront: image contents in ${out}\n`);
