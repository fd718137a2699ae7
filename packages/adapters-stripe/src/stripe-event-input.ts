/**
 * A verified Stripe event as the domain takes it (TakeProviderEvent): its id, and what it says about
 * an intent or a refund, read as the gateway reads the same objects. Event types that say nothing
 * the order needs are taken with no news: their id is still recorded, so a repeat stays a repeat.
 */
import { paymentIntentOutcome, refundOutcome } from '@storefront/adapter-support';
import type { ProviderEventInput } from '@storefront/domain/adapter-kit';
import type Stripe from 'stripe';
import { intentView, refundView } from './stripe-views.js';

export function stripeEventInput(event: Stripe.Event): ProviderEventInput {
  const eventId = event.id;
  switch (event.type) {
    case 'payment_intent.amount_capturable_updated':
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled':
    case 'payment_intent.requires_action':
    case 'payment_intent.processing':
    case 'payment_intent.created':
      return { eventId, news: { intent: paymentIntentOutcome(intentView(event.data.object)) } };
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated':
      return { eventId, news: { refund: refundOutcome(refundView(event.data.object)) } };
    case 'charge.refunded': {
      // The charge lists its refunds newest first, and only when the API version includes them;
      // each refund has events of its own, and the sweeper reads one left pending.
      const latest = event.data.object.refunds?.data[0];
      return latest === undefined ? { eventId } : { eventId, news: { refund: refundOutcome(refundView(latest)) } };
    }
    default:
      return { eventId };
  }
}
