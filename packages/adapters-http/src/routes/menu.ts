/** GET /api/products (whole menu, ETag/304) and GET /api/search. */
import type { Router } from '../router.js';
import type { MenuSnapshot, Product, Storefront } from '@storefront/domain';
import { createHash } from 'node:crypto';
import { replyOf, send } from '../reply.js';
import { productJson, pageMeta } from '../mappers.js';
import { readPaging, readString } from '../query.js';
import { validationProblem } from '../problem.js';
import type { FieldIssue } from '@storefront/domain';

interface RenderedMenu {
  /** UTF-8 bytes: nothing to measure or encode per request. */
  readonly body: Buffer;
  readonly etag: string;
}

export function menuRoutes(router: Router, storefront: Storefront): void {
  // The menu body and its ETag are computed once per menu revision, not per request.
  const rendered = new WeakMap<MenuSnapshot, RenderedMenu>();
  const render = (snapshot: MenuSnapshot): RenderedMenu => {
    let menu = rendered.get(snapshot);
    if (menu === undefined) {
      const body = Buffer.from(JSON.stringify({ products: snapshot.products.map(productJson) }));
      menu = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      rendered.set(snapshot, menu);
    }
    return menu;
  };

  router.get('/api/products', async (ctx) => {
    const menu = render(await storefront.listMenu.execute());
    const reply = replyOf(ctx);
    reply.set('ETag', menu.etag);
    reply.set('Cache-Control', 'no-cache');
    const conditional = ctx.req.headers['if-none-match'];
    if (conditional !== undefined && ifNoneMatch(conditional, menu.etag)) reply.send(304);
    else reply.send(200, menu.body);
  });

  // Each product's JSON is written once and reused by every search that returns it: products are
  // frozen, and a menu change brings new product objects (the old entries go with the old ones).
  const productText = new WeakMap<Product, string>();
  const textOf = (product: Product): string => {
    let text = productText.get(product);
    if (text === undefined) {
      text = JSON.stringify(productJson(product));
      productText.set(product, text);
    }
    return text;
  };

  router.get('/api/search', async (ctx) => {
    const issues: FieldIssue[] = [];
    const q = readString(ctx, 'q', issues);
    if (issues.length > 0) throw validationProblem(issues);
    const page = await storefront.searchMenu.execute({ q, ...readPaging(ctx) });
    // The same bytes as JSON.stringify({ meta, products }), without serialising the products again.
    send(ctx, 200, `{"meta":${JSON.stringify(pageMeta(page))},"products":[${page.items.map(textOf).join(',')}]}`);
  });
}

/** RFC 9110 §13.1.2: weak comparison, a list of tags, or `*`. */
function ifNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
