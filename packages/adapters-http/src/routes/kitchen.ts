/**
 * The kitchen's orders (staff only, checked by admission): GET /api/staff/orders, the queue by
 * status, and POST /api/staff/orders/{order_id}/status, one move along the lifecycle, with an
 * optional If-Match so that two kitchen screens cannot overwrite each other.
 */
import type { Storefront } from '@storefront/domain';
import { ifMatchVersion, versionTag } from '../conditional.js';
import type { OrderJsonCache } from '../order-json-cache.js';
import { pageHeaders } from '../page-links.js';
import { bytes } from '../reply.js';
import { get, post, type Route } from '../route.js';

/**
 * A move is never applied twice: sent again after it succeeded, it is refused (409, or 412 with
 * If-Match), since an order cannot move to the status it is in.
 */
const MOVE_RETRY = 'It is safe to retry: a move already applied is refused with 409 (412 with If-Match); GET the order to see where it is.';

export function kitchenRoutes(storefront: Storefront, orderJson: OrderJsonCache): Route[] {
  return [
    get(
      '/api/staff/orders',
      'listKitchenOrders',
      async (_exchange, { query }) => {
        const page = await storefront.listKitchenOrders.execute({ status: query.status, page: query.page, limit: query.limit });
        // The next page lists the same statuses.
        return bytes(200, orderJson.pageBytes(page), pageHeaders('/api/staff/orders', page, { status: query.status }));
      },
      { access: 'staff' },
    ),

    post('/api/staff/orders/:order_id/status', 'moveOrder', { retry: MOVE_RETRY, access: 'staff' }, async (exchange, { params, body }) => {
      const expectedVersion = ifMatchVersion(exchange.header('if-match'));
      const order = await storefront.moveOrder.execute({ orderId: params.order_id, status: body.status, reason: body.reason, expectedVersion });
      return bytes(200, orderJson.bytesOf(order), ['ETag', versionTag(order.version), 'Cache-Control', 'no-store']);
    }),
  ];
}
