/**
 * openapi.yaml at the root of this package, the HTTP interface's one description, shipped with the
 * package that checks against it: the requests it checks (operations.ts), the types its handlers
 * are given (api-types.ts, generated from it by `pnpm gen:client`) and the reference the app
 * serves at /docs. Parsed once per process, however many apps it starts (a test
 * run starts about a hundred; parsing takes 0.1 to 0.5 s).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** openapi.yaml of this package, found from this module (dist/src/contract → the package root). */
export const OPENAPI_DOCUMENT_PATH = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));

/** An OpenAPI 3.1 document, as parsed from YAML. */
export type OpenApiDocument = Readonly<Record<string, unknown>>;

const parsed = new Map<string, OpenApiDocument>();

/** The document at `path` (default: this package's), parsed once; throws when it cannot be read. */
export function openApiDocument(path: string = OPENAPI_DOCUMENT_PATH): OpenApiDocument {
  let document = parsed.get(path);
  if (document === undefined) {
    document = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
    parsed.set(path, document);
  }
  return document;
}
