/**
 * The money side of a kitchen or owner move, done before the move is stored (DECISIONS
 * "Payments"): acceptance captures first, a rejection or cancellation voids or refunds first. The
 * provider unreachable → `payment_provider_unavailable` and the order stays where it was; the
 * provider's calls carry keys derived from the order, so the move's retry acts once.
 */
import type { Order } from '../orders/order.js';
import type { OrderMove } from '../orders/order-lifecycle.js';
import type { PaymentDesk } from './payment-desk.js';

/** `move` with the order's payment after the provider was told, or `move` itself when there is nothing to tell. */
export async function withPayment(desk: PaymentDesk | null, order: Order, move: OrderMove): Promise<OrderMove> {
  const payment = order.payment;
  if (desk === null || payment === undefined) return move;
  if (move.status === 'accepted') return { ...move, payment: await desk.capture(order, payment) };
  if (move.status === 'rejected' || move.status === 'cancelled') return { ...move, payment: await desk.release(order, payment, move.at) };
  return move;
}
