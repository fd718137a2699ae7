/**
 * Stripe's webhook as the HTTP app takes payment events: the signature verified on the raw body
 * first (StripeEventVerifier), then the event read as the domain's input. Null for a signature that
 * does not verify: the route answers 400 and nothing is parsed further.
 */
import type { ProviderEventInput } from '@storefront/domain/adapter-kit';
import { stripeEventInput } from './stripe-event-input.js';
import type { StripeEventVerifier } from './stripe-event-verifier.js';

export class StripeEventsIntake {
  constructor(private readonly verifier: StripeEventVerifier) {}

  verify(rawBody: Buffer, signature: string | undefined): ProviderEventInput | null {
    const event = this.verifier.verify(rawBody, signature);
    return event === null ? null : stripeEventInput(event);
  }
}
