/**
 * The money side of a kitchen or owner move (DECISIONS "Payments"). Acceptance captures first: the
 * provider unreachable → `payment_provider_unavailable` and the order stays placed. A rejection or
 * cancellation is stored first, with the money it owes back (a void, or the whole refund recorded
 * pending), and only then told to the provider (giveBack): a capture or refund racing it can then
 * never be undone behind the order's back, and a void or refund the provider did not answer is the
 * sweeper's to finish. The provider's calls carry keys derived from the order, so every retry acts once.
 */
import type { Order } from '../orders/order.js';
import { isUncooked, type OrderMove } from '../orders/order-lifecycle.js';
import type { PaymentDesk } from './payment-desk.js';
import type { PaymentSettler } from './payment-settler.js';

/** A void, a capture found instead (its refund recorded), then the refund asked: a few steps always suffice. */
const MAX_STEPS = 8;

/** `move` with the order's payment as it is stored with the move (after the capture, for an acceptance). */
export async function withPayment(desk: PaymentDesk | null, order: Order, move: OrderMove): Promise<OrderMove> {
  const payment = order.payment;
  if (desk === null || payment === undefined) return move;
  if (move.status === 'accepted') return { ...move, payment: await desk.capture(order, payment) };
  if (isUncooked(move.status)) return { ...move, payment: desk.planRelease(order, move.at)! };
  return move;
}

/**
 * Gives back what a stored rejection or cancellation owes (PaymentDesk.nextReturn), one
 * compare-and-set per step: the order after it. The provider unreachable (or any failure) throws;
 * what is left stays due for the sweeper.
 */
export async function giveBack(desk: PaymentDesk, settler: PaymentSettler, order: Order): Promise<Order> {
  let current = order;
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = await settler.apply(current, (o, now) => desk.nextReturn(o, now));
    if (next.version === current.version) return next;
    current = next;
  }
  return current;
}
