/** GET /api/products (whole menu, ETag/304) and GET /api/search. */
import type { MenuSnapshot, Product, Storefront } from '@storefront/domain';
import { contentTag, ifNoneMatch } from '../conditional.js';
import { pageMeta, productJson } from '../mappers.js';
import { bytes, empty } from '../reply.js';
import { get, type Route } from '../route.js';

interface RenderedMenu {
  /** UTF-8 bytes: nothing to measure or encode per request. */
  readonly body: Buffer;
  /** ETag and Cache-Control, the headers of every answer of this revision. */
  readonly headers: readonly string[];
  readonly etag: string;
}

export function menuRoutes(storefront: Storefront): Route[] {
  // The menu body and its headers are computed once per menu revision, not per request.
  const rendered = new WeakMap<MenuSnapshot, RenderedMenu>();
  const render = (snapshot: MenuSnapshot): RenderedMenu => {
    let menu = rendered.get(snapshot);
    if (menu === undefined) {
      const body = Buffer.from(JSON.stringify({ products: snapshot.products.map((p) => productJson(p, storefront.taxes)) }));
      const etag = contentTag(body);
      menu = { body, etag, headers: ['ETag', etag, 'Cache-Control', 'no-cache'] };
      rendered.set(snapshot, menu);
    }
    return menu;
  };

  // Each product's JSON is written once and reused by every search that returns it: products are
  // frozen, and a menu change brings new product objects (the old entries go with the old ones).
  const productText = new WeakMap<Product, string>();
  const textOf = (product: Product): string => {
    let text = productText.get(product);
    if (text === undefined) {
      text = JSON.stringify(productJson(product, storefront.taxes));
      productText.set(product, text);
    }
    return text;
  };

  return [
    get('/api/products', 'listProducts', async (exchange) => {
      const menu = render(await storefront.listMenu.execute());
      const conditional = exchange.header('if-none-match');
      if (conditional !== undefined && ifNoneMatch(conditional, menu.etag)) return empty(304, menu.headers);
      return bytes(200, menu.body, menu.headers);
    }),

    get('/api/search', 'searchProducts', async (_exchange, { query }) => {
      const page = await storefront.searchMenu.execute({ q: query.q, page: query.page, limit: query.limit });
      // The same bytes as JSON.stringify({ meta, products }), without serialising the products again.
      return bytes(200, `{"meta":${JSON.stringify(pageMeta(page))},"products":[${page.items.map(textOf).join(',')}]}`);
    }),
  ];
}

