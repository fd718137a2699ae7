/** Where docs/openapi.yaml is: found from here, so that compiled tests read the repository's document. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory up from here holding pnpm-workspace.yaml. */
export function repositoryRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
  return dir;
}

export const OPENAPI_PATH = join(repositoryRoot(), 'docs', 'openapi.yaml');
