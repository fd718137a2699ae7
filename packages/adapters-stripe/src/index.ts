/**
 * @storefront/adapters-stripe: card payments on Stripe (the official `stripe` package). The
 * PaymentGateway port on PaymentIntents with manual capture, and Stripe's signed events verified
 * and read as the domain's provider events (the webhook's intake).
 */
export { createStripeClient, STRIPE_CLIENT_DEFAULTS, type StripeClientOptions } from './stripe-client.js';
export { StripePaymentGateway } from './stripe-payment-gateway.js';
export { STRIPE_SIGNATURE_TOLERANCE_SECONDS, StripeEventVerifier, type StripeEventVerifierOptions } from './stripe-event-verifier.js';
export { stripeEventInput } from './stripe-event-input.js';
export { StripeEventsIntake } from './stripe-events-intake.js';
