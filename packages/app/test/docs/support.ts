/** What the API reference's specs compare the served pages with: the document and Swagger UI's files. */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { contract } from '../contract/openapi.js';

/**
 * packages/adapters-http/openapi.yaml as the test suites parse it (the contract, parsed once per test process): the
 * oracle the service's own parse (src/api-reference.ts) is compared with.
 */
export function openApiDocument(): Record<string, unknown> {
  return contract().document;
}

/** Every operation of the document, as `GET /api/products`, sorted. */
export function documentedOperations(): string[] {
  return contract().operations().sort();
}

/** The bytes of a file of the installed swagger-ui-dist. */
export function swaggerUiFile(name: string): Buffer {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return readFileSync(join(dir, name));
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/**
 * A GET with the path sent exactly as written (fetch would resolve `..` and `%2e%2e` before
 * sending), from `localAddress` (127.0.0.x: another client) when given; no contract check, these
 * paths are outside the interface.
 */
export function rawGet(base: string, path: string, localAddress?: string): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const options = { host: url.hostname, port: Number(url.port), path, agent: false, ...(localAddress === undefined ? {} : { localAddress }) };
    const req = http.get(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
}
