/**
 * GET /kitchen (the kitchen display, DECISIONS "Kitchen display") and GET /kitchen/:file. Outside
 * /api like /docs, spending no quota; the page calls the public API like any client. The files are
 * read once by the app; their names are the allow-list (a Map, so `..%2f`, `constructor` or
 * `__proto__` name nothing: 404); an extension gives the Content-Type, others refused at start.
 */
import { HttpProblem } from '../problem.js';
import { unlisted, type Route } from '../route.js';
import { answer, CSS, HTML, JS, PAGE_HEADERS, render, type Rendered } from './page-files.js';

/** What the app hands over: the page and the files it loads, by name. */
export interface KitchenPage {
  /** The page itself, served at /kitchen with the Content-Security-Policy. */
  readonly html: Buffer;
  /** The files the page loads (ES modules, style sheets), by file name: served at /kitchen/{name}. */
  readonly files: ReadonlyMap<string, Buffer>;
}

const TYPES: ReadonlyMap<string, string> = new Map([
  ['.js', JS],
  ['.css', CSS],
]);

export function kitchenPageRoutes(kitchen: KitchenPage): Route[] {
  const page = render(kitchen.html, HTML, PAGE_HEADERS);
  const files = new Map<string, Rendered>();
  for (const [name, body] of kitchen.files) {
    const type = TYPES.get(name.slice(name.lastIndexOf('.')));
    if (type === undefined || name.includes('/')) throw new RangeError(`the kitchen page cannot serve ${name}: only .js and .css files, by plain name`);
    files.set(name, render(body, type));
  }
  const peek = { quota: 'peek' } as const;
  return [
    unlisted('/kitchen', (exchange) => answer(exchange, page), peek),
    unlisted(
      '/kitchen/:file',
      (exchange, { params }) => {
        const file = files.get(params['file'] ?? '');
        if (file === undefined) throw new HttpProblem('not_found', 'No such resource.');
        return answer(exchange, file);
      },
      peek,
    ),
  ];
}
