/**
 * An order's card payment and its refunds as the interface writes them (DECISIONS "Payments").
 * The intent's client secret lets whoever holds it pay for the order, so it is written only for the
 * order's owner and only while the order awaits its payment: `secretShown` is the one rule, and
 * every other rendering (staff, streams, webhooks, the shared cache) leaves it out.
 */
import type { Order } from '@storefront/domain';
import type { OrderPayment, RefundRecord } from '@storefront/domain/adapter-kit';

export function refundJson(r: RefundRecord) {
  return { refund_id: r.refundId, amount: r.amount, reason: r.reason, status: r.status, created_at: r.createdAt.toISOString() };
}

/** `clientSecret`: written as `client_secret` when given (see secretShown). */
export function paymentJson(p: OrderPayment, clientSecret?: string) {
  return {
    provider: p.provider,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    amount_captured: p.amountCaptured,
    amount_refunded: p.amountRefunded,
    payment_intent_id: p.intentId,
    refunds: p.refunds.map(refundJson),
    ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
  };
}

/** The client secret the order's owner is shown: only while the order awaits its payment. */
export function secretShown(order: Order): string | undefined {
  if (order.status !== 'awaiting_payment') return undefined;
  return order.payment?.clientSecret ?? undefined;
}
