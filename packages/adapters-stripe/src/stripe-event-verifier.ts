/**
 * Stripe's signed events, verified by the SDK's own `webhooks.constructEvent` on the raw body
 * before anything reads it: `Stripe-Signature` (`t=...,v1=...`, any of several v1), HMAC-SHA256
 * with the endpoint secret, 300 s tolerance. A bad, forged or stale signature is `null`.
 */
import type Stripe from 'stripe';

export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export interface StripeEventVerifierOptions {
  /** `whsec_...` */
  readonly webhookSecret: string;
  /** Now, in epoch ms (tests); default the machine's clock. */
  readonly now?: () => number;
}

export class StripeEventVerifier {
  constructor(
    private readonly stripe: Stripe,
    private readonly options: StripeEventVerifierOptions,
  ) {}

  /** The event, or null when the signature does not verify (missing, malformed, forged or stale). */
  verify(rawBody: string | Uint8Array, signature: string | undefined): Stripe.Event | null {
    if (signature === undefined || signature === '') return null;
    // The SDK takes `receivedAt` in epoch ms.
    const receivedAt = this.options.now?.();
    try {
      return this.stripe.webhooks.constructEvent(
        typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody),
        signature,
        this.options.webhookSecret,
        STRIPE_SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        receivedAt,
      );
    } catch (error) {
      if ((error as { type?: string }).type === 'StripeSignatureVerificationError') return null;
      throw error;
    }
  }
}
