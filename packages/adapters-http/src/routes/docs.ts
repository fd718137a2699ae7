/**
 * GET /docs (Swagger UI on the service's OpenAPI document), GET /docs/:file and GET /openapi.json;
 * outside /api and not in `HttpApp.routes`: not part of the interface. Files are read through
 * `ApiReference.asset` by the names of SWAGGER_UI_FILES only, the allow-list that is the whole
 * defence against path traversal. The page's script (PAGE_SCRIPT) is served as a file, so the
 * Content-Security-Policy needs no inline script.
 */
import { HttpProblem } from '../problem.js';
import { JSON_TYPE } from '../reply.js';
import { unlisted, type Route } from '../route.js';
import { answer, CSS, HTML, JS, PAGE_HEADERS, PNG, render, type Rendered } from './page-files.js';

/** The files of the swagger-ui-dist package the page loads: the only names `asset` is asked for. */
export type SwaggerUiFile = 'swagger-ui-bundle.js' | 'swagger-ui.css' | 'index.css' | 'favicon-32x32.png' | 'favicon-16x16.png';

/** What the app hands over to serve the reference: the document, and a way to read Swagger UI. */
export interface ApiReference {
  /** The OpenAPI document as parsed (openapi.yaml): served as JSON at /openapi.json. */
  readonly document: unknown;
  /** The bytes of one of Swagger UI's files; asked once per file, on its first request. */
  asset(file: SwaggerUiFile): Promise<Buffer>;
}

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

export function docsRoutes(reference: ApiReference): Route[] {
  const document = render(Buffer.from(JSON.stringify(reference.document)), JSON_TYPE);
  const script = render(Buffer.from(PAGE_SCRIPT), JS);
  const page = render(Buffer.from(PAGE_HTML), HTML, PAGE_HEADERS);

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
