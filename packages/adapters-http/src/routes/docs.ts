/**
 * GET /docs (Swagger UI on the service's own OpenAPI document), GET /docs/:file (the few files the
 * page loads) and GET /openapi.json (the document). Outside /api: they are not part of the
 * interface, and the app's route table (`HttpApp.routes`) does not list them.
 *
 * Swagger UI's files are read through `ApiReference.asset`, so this module never learns where they
 * live; it asks only for the names of SWAGGER_UI_FILES, the allow-list that is the whole defence
 * against path traversal (`/docs/..%2fpackage.json` names no listed file: 404). The page's script
 * is ours (PAGE_SCRIPT), served as a file, so that the Content-Security-Policy needs no inline script.
 */
import { contentTag, ifNoneMatch } from '../conditional.js';
import type { Exchange } from '../exchange.js';
import { HttpProblem } from '../problem.js';
import { bytes, empty, JSON_TYPE, type Reply } from '../reply.js';
import { unlisted, type Route } from '../route.js';

/** The files of the swagger-ui-dist package the page loads: the only names `asset` is asked for. */
export type SwaggerUiFile = 'swagger-ui-bundle.js' | 'swagger-ui.css' | 'index.css' | 'favicon-32x32.png' | 'favicon-16x16.png';

/** What the app hands over to serve the reference: the document, and a way to read Swagger UI. */
export interface ApiReference {
  /** The OpenAPI document as parsed (docs/openapi.yaml): served as JSON at /openapi.json. */
  readonly document: unknown;
  /** The bytes of one of Swagger UI's files; asked once per file, on its first request. */
  asset(file: SwaggerUiFile): Promise<Buffer>;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const PNG = 'image/png';

/** The allow-list: file name → Content-Type. A Map, so that `constructor` or `__proto__` name nothing. */
const SWAGGER_UI_FILES = new Map<string, string>([
  ['swagger-ui-bundle.js', JS],
  ['swagger-ui.css', CSS],
  ['index.css', CSS],
  ['favicon-32x32.png', PNG],
  ['favicon-16x16.png', PNG],
]);

/** Our file next to Swagger UI's: it starts the page (no inline script under the CSP). */
const PAGE_SCRIPT_FILE = 'storefront-docs.js';

/**
 * Fetches the document and points "Try it out" at the origin that served the page, whatever the
 * document's `servers` say (`http://localhost:3000` is right for `pnpm start` only). Swagger UI's
 * validator badge would call validator.swagger.io: off, the page works offline.
 */
const PAGE_SCRIPT = `'use strict';
window.addEventListener('load', async () => {
  const response = await fetch('/openapi.json', { headers: { accept: 'application/json' } });
  const spec = await response.json();
  spec.servers = [{ url: window.location.origin, description: 'This service' }];
  window.ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/**
 * What the page may do: scripts and style sheets from here only (Swagger UI's inline styles are set
 * through the DOM, which style-src does not govern), its icons as data: URLs (in swagger-ui.css),
 * requests to this origin. The browser test fails on any violation the page reports.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Every answer here may be stored but is revalidated before each use (ETag → 304): the URLs carry
 * no version, and a deploy may bring a new document or a new Swagger UI under the same names.
 */
const REVALIDATE = 'no-cache';

/** An answer computed once: its bytes and the headers of every answer of it. */
interface Rendered {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: readonly string[];
  readonly contentType: string;
}

export function docsRoutes(reference: ApiReference): Route[] {
  const document = render(Buffer.from(JSON.stringify(reference.document)), JSON_TYPE);
  const script = render(Buffer.from(PAGE_SCRIPT), JS);
  const page = render(Buffer.from(PAGE_HTML), 'text/html; charset=utf-8', [
    'Content-Security-Policy',
    PAGE_POLICY,
    'Referrer-Policy',
    'no-referrer',
  ]);

  // Each file is read on its first request and kept; a failed read is tried again next time.
  const assets = new Map<string, Promise<Rendered>>();
  const asset = (file: string): Promise<Rendered> => {
    let rendered = assets.get(file);
    if (rendered === undefined) {
      const contentType = SWAGGER_UI_FILES.get(file)!;
      rendered = reference.asset(file as SwaggerUiFile).then((data) => render(data, contentType));
      rendered.catch(() => assets.delete(file));
      assets.set(file, rendered);
    }
    return rendered;
  };

  // Reading the reference spends none of the caller's API quota: each route counts against its
  // own per-address limit instead, like the status reads (docs/decisions.md, "API reference at /docs").
  const peek = { quota: 'peek' } as const;
  return [
    unlisted('/docs', (exchange) => answer(exchange, page), peek),
    unlisted(
      '/docs/:file',
      async (exchange, { params }) => {
        const file = params['file'] ?? '';
        if (file === PAGE_SCRIPT_FILE) return answer(exchange, script);
        if (!SWAGGER_UI_FILES.has(file)) throw new HttpProblem('not_found', 'No such resource.');
        return answer(exchange, await asset(file));
      },
      peek,
    ),
    unlisted('/openapi.json', (exchange) => answer(exchange, document), peek),
  ];
}

function render(body: Buffer, contentType: string, extra: readonly string[] = []): Rendered {
  const etag = contentTag(body);
  return { body, etag, contentType, headers: ['ETag', etag, 'Cache-Control', REVALIDATE, ...extra] };
}

function answer(exchange: Exchange, rendered: Rendered): Reply {
  const conditional = exchange.header('if-none-match');
  if (conditional !== undefined && ifNoneMatch(conditional, rendered.etag)) return empty(304, rendered.headers);
  return bytes(200, rendered.body, rendered.headers, rendered.contentType);
}

/** Swagger UI's own index.html, with absolute URLs (the page answers at /docs and /docs/ alike). */
const PAGE_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Storefront API reference</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="/docs/index.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/${PAGE_SCRIPT_FILE}" charset="UTF-8"></script>
  </body>
</html>
`;
