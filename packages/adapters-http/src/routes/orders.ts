/**
 * A customer's orders: POST /api/orders (idempotent with Idempotency-Key), GET /api/orders (the
 * caller's, paged), GET /api/orders/{order_id} (ETag/304) and POST /api/orders/{order_id}/cancel.
 * Every order is written from its cached text (order-texts.ts).
 */
import type { Caller, FieldIssue, FulfilmentInput, OrderRequestLine, Storefront, Viewer } from '@storefront/domain';
import { isRecord, ORDER_LIMITS } from '@storefront/domain';
import { knownFields } from '../body-fields.js';
import { ifNoneMatch, versionTag } from '../conditional.js';
import { requireCaller, type Exchange } from '../exchange.js';
import type { OrderTexts } from '../order-texts.js';
import { orderIdParam } from '../path-params.js';
import { validationProblem } from '../problem.js';
import { pageHeaders, readPaging } from '../query.js';
import { bytes, empty } from '../reply.js';
import { get, post, SAFE_TO_RETRY, type Route } from '../route.js';

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

const NO_STORE = ['Cache-Control', 'no-store'];
const REPLAYED = ['Cache-Control', 'no-store', 'Idempotent-Replayed', 'true'];
/**
 * One order may be kept by the caller's own cache (never a shared one) and must be revalidated:
 * a browser polling it then gets 304 without a body until the order moves.
 */
const ONE_ORDER_CACHE = 'private, no-cache';

export function viewerOf(caller: Caller): Viewer {
  return { customerId: caller.customer.customerId, role: caller.customer.role };
}

export function orderRoutes(storefront: Storefront, texts: OrderTexts): Route[] {
  return [
    post('/api/orders', { retry: orderRetryAdvice }, async (exchange) => {
      const caller = requireCaller(exchange);
      const { items, fulfilment, tip } = readOrderBody(exchange.body);
      const result = await storefront.placeOrder.execute({
        customerId: caller.customer.customerId,
        items,
        fulfilment,
        tip,
        idempotencyKey: exchange.header('idempotency-key'),
      });
      return bytes(201, texts.bytesOf(result.order), result.replayed ? REPLAYED : NO_STORE);
    }),

    get('/api/orders', async (exchange) => {
      const caller = requireCaller(exchange);
      const page = await storefront.listOrders.execute({ customerId: caller.customer.customerId, ...readPaging(exchange) });
      return bytes(200, texts.pageBytes(page), pageHeaders('/api/orders', page));
    }),

    // The owner or staff; anybody else is told there is no such order (404, never 403).
    get('/api/orders/:order_id', async (exchange) => {
      const caller = requireCaller(exchange);
      const order = await storefront.getOrder.execute({ viewer: viewerOf(caller), orderId: orderIdParam(exchange) });
      const etag = versionTag(order.version);
      const headers = ['ETag', etag, 'Cache-Control', ONE_ORDER_CACHE];
      const conditional = exchange.header('if-none-match');
      if (conditional !== undefined && ifNoneMatch(conditional, etag)) return empty(304, headers);
      return bytes(200, texts.bytesOf(order), headers);
    }),

    // Cancelling twice answers the cancelled order again, so a retry is always safe. The body is
    // optional and takes no field: `{}` is accepted (clients that always send one), anything else is
    // a 400, so that a field meant for the cancel (a reason, say) is never silently dropped.
    post('/api/orders/:order_id/cancel', { retry: SAFE_TO_RETRY }, async (exchange) => {
      const caller = requireCaller(exchange);
      const orderId = orderIdParam(exchange);
      knownFields(exchange.body, []);
      const order = await storefront.cancelOrder.execute({ customerId: caller.customer.customerId, orderId });
      return bytes(200, texts.bytesOf(order), ['ETag', versionTag(order.version), ...NO_STORE]);
    }),
  ];
}

interface OrderBody {
  readonly items: OrderRequestLine[];
  readonly fulfilment: FulfilmentInput | undefined;
  readonly tip: unknown;
}

const BODY_FIELDS = new Set(['items', 'fulfilment', 'tip']);
const FULFILMENT_FIELDS = new Set(['type', 'time', 'address']);
const ADDRESS_FIELDS = new Set(['line1', 'line2', 'city', 'postal_code', 'lat', 'lng', 'instructions']);

/**
 * The shape and types of `{"items": [{"product_id": "...", "quantity": 2, "options": ["opt_…"]}],
 * "fulfilment": {...}, "tip": 200}`: unknown fields are refused here; the ranges (ORDER_LIMITS,
 * FULFILMENT_LIMITS) and the options' fit are the domain's to check.
 */
function readOrderBody(body: unknown): OrderBody {
  const issues: FieldIssue[] = [];
  if (!isRecord(body)) throw validationProblem([{ path: '', message: 'the body must be a JSON object with "items"' }]);
  for (const key of Object.keys(body)) if (!BODY_FIELDS.has(key)) issues.push({ path: key, message: 'is not a known field' });
  const fulfilment = readFulfilment(body['fulfilment'], issues);
  const items = body['items'];
  if (!Array.isArray(items)) {
    issues.push({ path: 'items', message: 'is required: a list of {product_id, quantity, options?}' });
    throw validationProblem(issues);
  }
  const lines = items.map((item: unknown, i): OrderRequestLine => {
    if (!isRecord(item)) {
      issues.push({ path: `items.${i}`, message: 'must be an object with product_id and quantity' });
      return { productId: '', quantity: 0 };
    }
    for (const key of Object.keys(item)) {
      if (!LINE_FIELDS.has(key)) issues.push({ path: `items.${i}.${key}`, message: 'is not a known field' });
    }
    const productId = item['product_id'];
    const quantity = item['quantity'];
    const options = item['options'];
    if (typeof productId !== 'string') issues.push({ path: `items.${i}.product_id`, message: 'is required: a string' });
    if (typeof quantity !== 'number') {
      issues.push({ path: `items.${i}.quantity`, message: `is required: an integer from ${ORDER_LIMITS.minQuantity} to ${ORDER_LIMITS.maxQuantity}` });
    }
    if (options === undefined) return { productId: productId as string, quantity: quantity as number };
    if (!Array.isArray(options) || !options.every((id) => typeof id === 'string')) {
      issues.push({ path: `items.${i}.options`, message: 'must be a list of option ids (strings), each at most once' });
    }
    return { productId: productId as string, quantity: quantity as number, options: options as string[] };
  });
  if (issues.length > 0) throw validationProblem(issues);
  return { items: lines, fulfilment, tip: body['tip'] };
}

/** `fulfilment` with its field names mapped to the domain's (postal_code → postalCode); values are the domain's to check. */
function readFulfilment(value: unknown, issues: FieldIssue[]): FulfilmentInput | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.push({ path: 'fulfilment', message: 'must be an object {type, time?, address?}' });
    return undefined;
  }
  for (const key of Object.keys(value)) if (!FULFILMENT_FIELDS.has(key)) issues.push({ path: `fulfilment.${key}`, message: 'is not a known field' });
  const address = value['address'];
  if (!isRecord(address)) return { type: value['type'], time: value['time'], address };
  for (const key of Object.keys(address)) if (!ADDRESS_FIELDS.has(key)) issues.push({ path: `fulfilment.address.${key}`, message: 'is not a known field' });
  const { postal_code: postalCode, ...rest } = address;
  return { type: value['type'], time: value['time'], address: { ...rest, postalCode } };
}

const LINE_FIELDS = new Set(['product_id', 'quantity', 'options']);
