/**
 * A customer's orders: POST /api/orders (idempotent with Idempotency-Key), GET /api/orders (the
 * caller's, paged), GET /api/orders/{order_id} (ETag/304) and POST /api/orders/{order_id}/cancel.
 * Every order is written from its cached text (order-json-cache.ts), as its owner sees it: the
 * owner of an order awaiting its payment is shown the payment's client secret, staff never.
 */
import type { Caller, Order, Storefront, Viewer } from '@storefront/domain';
import type { FulfilmentInput } from '@storefront/domain/adapter-kit';
import type { Input } from '../contract/input.js';
import { ifNoneMatch, versionTag } from '../conditional.js';
import { requireCaller, type Exchange } from '../exchange.js';
import type { OrderView } from '../mappers.js';
import type { OrderJsonCache } from '../order-json-cache.js';
import { pageHeaders } from '../page-links.js';
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

/** The owner's view for the customer who placed the order; staff reading another's order get the shared one. */
function viewOf(caller: Caller, order: Order): OrderView {
  return order.customerId === caller.customer.customerId ? 'owner' : 'shared';
}

export function orderRoutes(storefront: Storefront, orderJson: OrderJsonCache): Route[] {
  return [
    post('/api/orders', 'placeOrder', { retry: orderRetryAdvice, access: 'caller' }, async (exchange, { body }) => {
      const caller = requireCaller(exchange);
      const result = await storefront.placeOrder.execute({
        customerId: caller.customer.customerId,
        items: body.items.map((line) => ({ productId: line.product_id, quantity: line.quantity, ...(line.options === undefined ? {} : { options: line.options }) })),
        fulfilment: fulfilmentInput(body.fulfilment),
        tip: body.tip,
        idempotencyKey: exchange.header('idempotency-key'),
      });
      return bytes(201, orderJson.bytesOf(result.order, 'owner'), result.replayed ? REPLAYED : NO_STORE);
    }),

    get(
      '/api/orders',
      'listOrders',
      async (exchange, { query }) => {
        const caller = requireCaller(exchange);
        const page = await storefront.listOrders.execute({ customerId: caller.customer.customerId, page: query.page, limit: query.limit });
        // Only the caller's own orders.
        return bytes(200, orderJson.pageBytes(page, 'owner'), pageHeaders('/api/orders', page));
      },
      { access: 'caller' },
    ),

    // The owner or staff; anybody else is told there is no such order (404, never 403).
    get(
      '/api/orders/:order_id',
      'getOrder',
      async (exchange, { params }) => {
        const caller = requireCaller(exchange);
        const order = await storefront.getOrder.execute({ viewer: viewerOf(caller), orderId: params.order_id });
        const etag = versionTag(order.version);
        const headers = ['ETag', etag, 'Cache-Control', ONE_ORDER_CACHE];
        const conditional = exchange.header('if-none-match');
        if (conditional !== undefined && ifNoneMatch(conditional, etag)) return empty(304, headers);
        return bytes(200, orderJson.bytesOf(order, viewOf(caller, order)), headers);
      },
      { access: 'caller' },
    ),

    // Cancelling twice answers the cancelled order again, so a retry is always safe. The body is
    // optional and takes no field (EmptyRequest): `{}` is accepted (clients that always send one),
    // anything else is a 400, so that a field meant for the cancel (a reason, say) is never silently
    // dropped.
    post('/api/orders/:order_id/cancel', 'cancelOrder', { retry: SAFE_TO_RETRY, access: 'caller' }, async (exchange, { params }) => {
      const caller = requireCaller(exchange);
      const order = await storefront.cancelOrder.execute({ customerId: caller.customer.customerId, orderId: params.order_id });
      return bytes(200, orderJson.bytesOf(order, 'owner'), ['ETag', versionTag(order.version), ...NO_STORE]);
    }),
  ];
}

/** The checked body's fulfilment in the domain's words (postal_code → postalCode); the domain checks the values again. */
function fulfilmentInput(fulfilment: Input<'placeOrder'>['body']['fulfilment']): FulfilmentInput | undefined {
  if (fulfilment === undefined) return undefined;
  const { address, ...rest } = fulfilment;
  if (address === undefined) return rest;
  const { postal_code: postalCode, ...fields } = address;
  return { ...rest, address: { ...fields, postalCode } };
}
