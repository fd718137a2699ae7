/**
 * The `stripe` SDK client as Storefront uses it: a time-out on every call, a deliberate retry
 * budget, and STRIPE_API_BASE (a URL) turned into the SDK's host, port and protocol so that tests
 * point it at a stand-in. The secret key goes to the SDK and nowhere else.
 */
import Stripe from 'stripe';

export interface StripeClientOptions {
  /** `sk_test_...` / `sk_live_...` (or a restricted `rk_...` key). */
  readonly secretKey: string;
  /** Default Stripe's own `https://api.stripe.com`. */
  readonly apiBase?: string;
  /** Per attempt; default 10 s. */
  readonly timeoutMs?: number;
  /**
   * Retries by the SDK on a connection error, a 409 or a 5xx, with the same idempotency key (so a
   * retry never acts twice) and Stripe's backoff (0.5 s, then doubling). Default 1: one more
   * chance for a dropped connection, while a customer waiting on an outage hears 503 within about
   * two time-outs.
   */
  readonly maxNetworkRetries?: number;
}

export const STRIPE_CLIENT_DEFAULTS = { apiBase: 'https://api.stripe.com', timeoutMs: 10_000, maxNetworkRetries: 1 } as const;

export function createStripeClient(options: StripeClientOptions): Stripe {
  const base = new URL(options.apiBase ?? STRIPE_CLIENT_DEFAULTS.apiBase);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('STRIPE_API_BASE must be an http or https URL.');
  const protocol = base.protocol === 'https:' ? 'https' : 'http';
  return new Stripe(options.secretKey, {
    host: base.hostname,
    port: base.port === '' ? (protocol === 'https' ? 443 : 80) : Number(base.port),
    protocol,
    timeout: options.timeoutMs ?? STRIPE_CLIENT_DEFAULTS.timeoutMs,
    maxNetworkRetries: options.maxNetworkRetries ?? STRIPE_CLIENT_DEFAULTS.maxNetworkRetries,
    telemetry: false,
    appInfo: { name: 'Storefront' },
  });
}
