/** Where the OpenAPI document is (packages/adapters-http/openapi.yaml), and the repository root. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_DOCUMENT_PATH } from '@storefront/adapters-http';

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

/** The document the HTTP adapter checks requests against, read from the same file. */
export const OPENAPI_PATH = OPENAPI_DOCUMENT_PATH;
