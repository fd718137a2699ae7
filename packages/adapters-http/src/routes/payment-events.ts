/**
 * The payment provider's events (DECISIONS "Payments"): POST /api/payments/stripe/webhook, served
 * only when payments are on. The body is read as bytes and its signature verified before anything
 * reads it; a bad or missing one is 400 `invalid_signature` and changes nothing. A verified event
 * takes effect once (TakeProviderEvent): the provider hears 200 for an applied, unknown or repeated
 * one, and 503 while another instance is applying the same event, so that it sends it again later.
 */
import type { Storefront } from '@storefront/domain';
import type { PaymentEventsIntake } from '../app-types.js';
import { HTTP_LIMITS } from '../limits.js';
import { HttpProblem } from '../problem.js';
import { json } from '../reply.js';
import { rawPost, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];
const EVENT_RETRY = 'It is safe to retry: each event takes effect once.';
/** How long the provider should wait while another instance holds the event (its lease is longer; Stripe backs off anyway). */
const BUSY_RETRY_SECONDS = '5';

export function paymentEventRoutes(intake: PaymentEventsIntake, take: NonNullable<Storefront['takeProviderEvent']>): Route[] {
  return [
    // The provider's servers call from a few addresses: their requests only look at the caller's
    // quota and count against the route's own per-address limit (`peek`), never a customer's.
    rawPost(
      '/api/payments/stripe/webhook',
      'takeStripeEvent',
      { retry: EVENT_RETRY, quota: 'peek', limitBytes: HTTP_LIMITS.providerEventBodyLimitBytes },
      async (exchange, { body }) => {
        const event = intake.verify(body, exchange.header('stripe-signature'));
        if (event === null) throw new HttpProblem('invalid_signature', 'The Stripe-Signature header does not sign this body.');
        const result = await take.execute(event);
        if (result === 'busy') {
          throw new HttpProblem('service_unavailable', 'The event is being applied elsewhere; send it again later.', undefined, { 'Retry-After': BUSY_RETRY_SECONDS });
        }
        return json(200, { received: true }, NO_STORE);
      },
    ),
  ];
}
