/**
 * What the HTTP app needs to serve the API reference at /docs (STOREFRONT_DOCS): the HTTP adapter's
 * openapi.yaml, parsed once at start, and Swagger UI's files from the installed swagger-ui-dist
 * package (no CDN: the page works offline). The adapter decides which file names are served; this
 * only knows where they are.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OPENAPI_DOCUMENT_PATH, openApiDocument, type ApiReference } from '@storefront/adapters-http';
import { ConfigError } from './config.js';

export { OPENAPI_DOCUMENT_PATH };

/**
 * The document and Swagger UI, or a ConfigError naming STOREFRONT_DOCS when either is missing: a
 * reference that cannot be served stops the start, not the first visitor.
 */
export function loadApiReference(documentPath: string = OPENAPI_DOCUMENT_PATH): ApiReference {
  let document: unknown;
  let swaggerUi: string;
  try {
    // Parsed once per process, and the same document the HTTP adapter checks requests against.
    document = openApiDocument(documentPath);
    // The package.json, not the package: its main module would load Swagger UI's bundle into Node.
    swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch (error) {
    throw ConfigError.of('STOREFRONT_DOCS', `The API reference cannot be served (${(error as Error).message}); set STOREFRONT_DOCS=false to start without it`);
  }
  return { document, asset: (file) => readFile(join(swaggerUi, file)) };
}
