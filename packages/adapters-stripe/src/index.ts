/**
 * @storefront/adapters-stripe: card payments on Stripe (the official `stripe` package). The
 * PaymentGateway port on PaymentIntents with manual capture, and the verifier of Stripe's signed
 * events. Not wired into the service yet (issue 35's groundwork).
 */
export { createStripeClient, STRIPE_CLIENT_DEFAULTS, type StripeClientOptions } from './stripe-client.js';
export { StripePaymentGateway } from './stripe-payment-gateway.js';
export { STRIPE_SIGNATURE_TOLERANCE_SECONDS, StripeEventVerifier, type StripeEventVerifierOptions } from './stripe-event-verifier.js';
