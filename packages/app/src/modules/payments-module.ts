/**
 * Card payments (STOREFRONT_PAYMENTS=stripe): one Stripe client (STRIPE_SECRET_KEY, STRIPE_API_BASE)
 * for the gateway the order use cases call and for the verifier of the webhook's events
 * (STRIPE_WEBHOOK_SECRET). With METRICS_PORT both are measured. Unbound (undefined) when payments
 * are off: the storefront gets no payment ports and the HTTP app no webhook route.
 */
import type { HttpAppDependencies } from '@storefront/adapters-http';
import { createStripeClient, StripeEventsIntake, StripeEventVerifier, StripePaymentGateway } from '@storefront/adapters-stripe';
import type { PaymentGateway } from '@storefront/domain/adapter-kit';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import type { StripeConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import { MeteredPaymentGateway } from '../metrics/metered-payment-gateway.js';
import { PaymentOutcomes } from '../metrics/payment-outcomes.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

export type PaymentEventsIntake = NonNullable<HttpAppDependencies['paymentEvents']>;

export interface CardPayments {
  readonly gateway: PaymentGateway;
  /** The webhook's intake: verified events as the domain takes them. */
  readonly events: PaymentEventsIntake;
}

export function paymentsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.CardPayments, [TYPES.Config, TYPES.Metrics], (config, metrics) =>
      config.payments.provider === 'stripe' ? measured(stripePayments(config.payments.stripe), metrics) : undefined,
    );
  });
}

function stripePayments(config: StripeConfig): CardPayments {
  const stripe = createStripeClient({ secretKey: config.secretKey, apiBase: config.apiBase });
  return {
    gateway: new StripePaymentGateway(stripe),
    events: new StripeEventsIntake(new StripeEventVerifier(stripe, { webhookSecret: config.webhookSecret })),
  };
}

/** The provider's calls and the events' news reported to metrics (METRICS_PORT), else as they are. */
export function measured(payments: CardPayments, metrics: ServiceMetrics | undefined): CardPayments {
  if (metrics === undefined) return payments;
  const outcomes = new PaymentOutcomes(metrics);
  return {
    gateway: new MeteredPaymentGateway(payments.gateway, metrics, outcomes),
    events: {
      verify: (rawBody, signature) => {
        const input = payments.events.verify(rawBody, signature);
        if (input?.news !== undefined) outcomes.news(input.news);
        return input;
      },
    },
  };
}
