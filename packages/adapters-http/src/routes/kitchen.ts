/**
 * The kitchen's orders (staff only, checked by admission): GET /api/staff/orders, the queue by
 * status, and POST /api/staff/orders/{order_id}/status, one move along the lifecycle, with an
 * optional If-Match so that two kitchen screens cannot overwrite each other.
 */
import type { FieldIssue, Storefront } from '@storefront/domain';
import { knownFields } from '../body-fields.js';
import { ifMatchVersion, versionTag } from '../conditional.js';
import type { OrderTexts } from '../order-texts.js';
import { orderIdParam } from '../path-params.js';
import { validationProblem } from '../problem.js';
import { pageHeaders, readPaging, readString } from '../query.js';
import { bytes } from '../reply.js';
import { get, post, type Route } from '../route.js';

/**
 * A move is never applied twice: sent again after it succeeded, it is refused (409, or 412 with
 * If-Match), since an order cannot move to the status it is in.
 */
const MOVE_RETRY = 'It is safe to retry: a move already applied is refused with 409 (412 with If-Match); GET the order to see where it is.';

export function kitchenRoutes(storefront: Storefront, texts: OrderTexts): Route[] {
  return [
    get(
      '/api/staff/orders',
      async (exchange) => {
        const issues: FieldIssue[] = [];
        const status = readString(exchange, 'status', issues);
        if (issues.length > 0) throw validationProblem(issues);
        const page = await storefront.listKitchenOrders.execute({ status, ...readPaging(exchange) });
        // The next page lists the same statuses.
        return bytes(200, texts.pageBytes(page), pageHeaders('/api/staff/orders', page, { status }));
      },
      { access: 'staff' },
    ),

    post('/api/staff/orders/:order_id/status', { retry: MOVE_RETRY, access: 'staff' }, async (exchange) => {
      const orderId = orderIdParam(exchange);
      const expectedVersion = ifMatchVersion(exchange.header('if-match'));
      const body = knownFields(exchange.body, ['status', 'reason']);
      const order = await storefront.moveOrder.execute({ orderId, status: body['status'], reason: body['reason'], expectedVersion });
      return bytes(200, texts.bytesOf(order), ['ETag', versionTag(order.version), 'Cache-Control', 'no-store']);
    }),
  ];
}
