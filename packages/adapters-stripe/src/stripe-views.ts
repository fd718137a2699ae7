/**
 * Stripe's objects narrowed to the fields adapter-support's outcome functions read: one reading for
 * the gateway's answers and for the objects inside events, so an event and a read of the same
 * intent say the same thing.
 */
import type { IntentView, RefundView } from '@storefront/adapter-support';
import type Stripe from 'stripe';

/**
 * The intent's fields the outcome reads. `amount_refunded` comes from its latest charge when that
 * is expanded (a read); an event's intent carries the charge's id only, so it reads 0 there.
 */
export function intentView(intent: Stripe.PaymentIntent): IntentView {
  const charge = intent.latest_charge;
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    client_secret: intent.client_secret,
    metadata: intent.metadata,
    amount_capturable: intent.amount_capturable,
    amount_received: intent.amount_received,
    cancellation_reason: intent.cancellation_reason,
    last_payment_error: intent.last_payment_error,
    amount_refunded: typeof charge === 'object' && charge !== null ? charge.amount_refunded : 0,
  };
}

export function refundView(refund: Stripe.Refund): RefundView {
  const intent = refund.payment_intent;
  return {
    id: refund.id,
    status: refund.status,
    amount: refund.amount,
    payment_intent: typeof intent === 'object' && intent !== null ? intent.id : intent,
    reason: refund.reason,
    metadata: refund.metadata ?? {},
  };
}
