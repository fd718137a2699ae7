/** POST /api/orders (idempotent with Idempotency-Key) and GET /api/orders (the caller's, paged). */
import type { FieldIssue, OrderRequestLine, Storefront } from '@storefront/domain';
import { isRecord, ORDER_LIMITS } from '@storefront/domain';
import { requireCaller, type Exchange } from '../exchange.js';
import { orderJson, pageMeta } from '../mappers.js';
import { validationProblem } from '../problem.js';
import { readPaging } from '../query.js';
import { json } from '../reply.js';
import { get, post, type Route } from '../route.js';

/**
 * After a 500, a placement with an Idempotency-Key can be sent again as it was: it replays or
 * places once. Without a key, the order may have been stored before the failure, and sending it
 * again would place a second one.
 */
function orderRetryAdvice(exchange: Pick<Exchange, 'header'>): string {
  return exchange.header('idempotency-key') === undefined
    ? 'The order may have been placed: check GET /api/orders before placing it again (with an Idempotency-Key, a retry is safe).'
    : 'It is safe to retry with the same Idempotency-Key.';
}

const PLACED = ['Cache-Control', 'no-store'];
const REPLAYED = ['Cache-Control', 'no-store', 'Idempotent-Replayed', 'true'];

export function orderRoutes(storefront: Storefront): Route[] {
  return [
    post('/api/orders', { retry: orderRetryAdvice }, async (exchange) => {
      const caller = requireCaller(exchange);
      const result = await storefront.placeOrder.execute({
        customerId: caller.customer.customerId,
        items: readOrderBody(exchange.body),
        idempotencyKey: exchange.header('idempotency-key'),
      });
      return json(201, orderJson(result.order), result.replayed ? REPLAYED : PLACED);
    }),

    get('/api/orders', async (exchange) => {
      const caller = requireCaller(exchange);
      const page = await storefront.listOrders.execute({ customerId: caller.customer.customerId, ...readPaging(exchange) });
      const headers = ['Cache-Control', 'no-store'];
      if (page.nextPage !== null) headers.push('Link', `</api/orders?page=${page.nextPage}&limit=${page.perPage}>; rel="next"`);
      return json(200, { meta: pageMeta(page), orders: page.items.map(orderJson) }, headers);
    }),
  ];
}

/**
 * The shape and types of `{"items": [{"product_id": "...", "quantity": 2}]}`: unknown fields are
 * refused here; the ranges (ORDER_LIMITS) are the domain's to check.
 */
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
    if (typeof quantity !== 'number') {
      issues.push({ path: `items.${i}.quantity`, message: `is required: an integer from ${ORDER_LIMITS.minQuantity} to ${ORDER_LIMITS.maxQuantity}` });
    }
    return { productId: productId as string, quantity: quantity as number };
  });
  if (issues.length > 0) throw validationProblem(issues);
  return lines;
}
