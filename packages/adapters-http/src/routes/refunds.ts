/**
 * Staff refunds (DECISIONS "Payments"): POST /api/staff/orders/{order_id}/refunds gives back part or
 * all of what the order's payment captured. With an Idempotency-Key, the same key and body answer
 * the same refund again (`Idempotent-Replayed`), as POST /api/orders does for orders; the refund is
 * recorded before the provider is asked, and its later events settle its status.
 */
import type { Storefront } from '@storefront/domain';
import type { Exchange } from '../exchange.js';
import { refundJson } from '../payment-json.js';
import { json } from '../reply.js';
import { post, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];
const REPLAYED = ['Cache-Control', 'no-store', 'Idempotent-Replayed', 'true'];

/** Without a key, a refund may have been recorded before the failure: look before asking again. */
function refundRetryAdvice(exchange: Pick<Exchange, 'header'>): string {
  return exchange.header('idempotency-key') === undefined
    ? "The refund may have been made: check the order's payment (GET /api/orders/{order_id}) before refunding again (with an Idempotency-Key, a retry is safe)."
    : 'It is safe to retry with the same Idempotency-Key.';
}

export function refundRoutes(storefront: Storefront): Route[] {
  return [
    post('/api/staff/orders/:order_id/refunds', 'refundOrder', { retry: refundRetryAdvice, access: 'staff' }, async (exchange, { params, body }) => {
      const result = await storefront.refundOrder.execute({
        orderId: params.order_id,
        amount: body.amount,
        reason: body.reason,
        idempotencyKey: exchange.header('idempotency-key'),
      });
      return json(201, refundJson(result.refund), result.replayed ? REPLAYED : NO_STORE);
    }),
  ];
}
