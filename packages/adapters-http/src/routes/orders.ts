/** POST /api/orders (idempotent with Idempotency-Key) and GET /api/orders (the caller's, paged). */
import type { Router } from '../router.js';
import type { FieldIssue, OrderRequestLine, Storefront } from '@storefront/domain';
import type { Context, Middleware } from 'koa';
import { isRecord } from '../json.js';
import { orderJson, pageMeta } from '../mappers.js';
import { validationProblem } from '../problem.js';
import { readPaging } from '../query.js';
import { send, setHeader } from '../reply.js';
import { requireCaller } from '../state.js';

/**
 * After a 500, a placement with an Idempotency-Key can be sent again as it was: it replays or
 * places once. Without a key, the order may have been stored before the failure, and sending it
 * again would place a second one.
 */
function retryAdvice(ctx: Context): string {
  return ctx.req.headers['idempotency-key'] === undefined
    ? 'The order may have been placed: check GET /api/orders before placing it again (with an Idempotency-Key, a retry is safe).'
    : 'It is safe to retry with the same Idempotency-Key.';
}

export function orderRoutes(router: Router, storefront: Storefront, jsonBody: Middleware): void {
  router.post('/api/orders', { retry: retryAdvice }, jsonBody, async (ctx) => {
    const caller = requireCaller(ctx);
    const items = readOrderBody(ctx.request.body);
    const key = ctx.headers['idempotency-key'];
    const result = await storefront.placeOrder.execute({
      customerId: caller.customer.customerId,
      items,
      idempotencyKey: Array.isArray(key) ? key.join(', ') : key,
    });
    setHeader(ctx, 'Cache-Control', 'no-store');
    if (result.replayed) setHeader(ctx, 'Idempotent-Replayed', 'true');
    send(ctx, 201, orderJson(result.order));
  });

  router.get('/api/orders', async (ctx) => {
    const caller = requireCaller(ctx);
    const page = await storefront.listOrders.execute({ customerId: caller.customer.customerId, ...readPaging(ctx) });
    setHeader(ctx, 'Cache-Control', 'no-store');
    if (page.nextPage !== null) setHeader(ctx, 'Link', `</api/orders?page=${page.nextPage}&limit=${page.perPage}>; rel="next"`);
    send(ctx, 200, { meta: pageMeta(page), orders: page.items.map(orderJson) });
  });
}

/** Shape and types of `{"items": [{"product_id": "...", "quantity": 2}]}`; ranges are the domain's. */
function readOrderBody(body: unknown): OrderRequestLine[] {
  const issues: FieldIssue[] = [];
  if (!isRecord(body)) throw validationProblem([{ path: '', message: 'the body must be a JSON object with "items"' }]);
  for (const key of Object.keys(body)) if (key !== 'items') issues.push({ path: key, message: 'is not a known field' });
  const items = body['items'];
  if (!Array.isArray(items)) {
    issues.push({ path: 'items', message: 'is required: a list of {product_id, quantity}' });
    throw validationProblem(issues);
  }
  const lines = items.map((item: unknown, i): OrderRequestLine => {
    if (!isRecord(item)) {
      issues.push({ path: `items.${i}`, message: 'must be an object with product_id and quantity' });
      return { productId: '', quantity: 0 };
    }
    for (const key of Object.keys(item)) {
      if (key !== 'product_id' && key !== 'quantity') issues.push({ path: `items.${i}.${key}`, message: 'is not a known field' });
    }
    const productId = item['product_id'];
    const quantity = item['quantity'];
    if (typeof productId !== 'string') issues.push({ path: `items.${i}.product_id`, message: 'is required: a string' });
    if (typeof quantity !== 'number') issues.push({ path: `items.${i}.quantity`, message: 'is required: an integer from 1 to 99' });
    return { productId: productId as string, quantity: quantity as number };
  });
  if (issues.length > 0) throw validationProblem(issues);
  return lines;
}
