/**
 * What the composition root reports to metrics, without naming the library that records it: the
 * modules hold this interface (bound as TYPES.Metrics, undefined when METRICS_PORT is unset, so
 * that nothing is recorded or called then), and prometheus-metrics.ts implements it.
 */
import type { HttpObserver } from '@storefront/adapters-http';

/** Who decided a rate-limit question: Redis, the in-process fallback while Redis fails, or the in-process limiter (no REDIS_URL). */
export type LimiterKind = 'redis' | 'fallback' | 'memory';

/** Where a Redis error was seen: the client's connection (each failed connect or reconnect), or a limiter command. */
export type RedisErrorSource = 'client' | 'rate_limiter';

export interface ServiceMetrics {
  /** Handed to createHttpApp: each answered request, each unexpected failure. */
  readonly http: HttpObserver;
  rateLimitDecided(policy: string, allowed: boolean, limiter: LimiterKind): void;
  redisError(source: RedisErrorSource): void;
  /** The shared limiter's fallback started (true) or stopped (false) deciding. */
  rateLimiterDegraded(degraded: boolean): void;
  /** A webhook delivery attempt was recorded by this instance's dispatcher. */
  webhookAttempted(outcome: WebhookAttemptOutcome): void;
  /** A call to the payment provider answered (or failed) after `seconds`. */
  paymentProviderCalled(operation: PaymentOperation, outcome: ProviderCallOutcome, seconds: number): void;
  /** A payment reached an outcome, as this instance heard it (the provider's answers and events). */
  paymentSettled(outcome: PaymentOutcome): void;
  /** A refund reached a status, as this instance heard it. */
  refundSettled(outcome: RefundOutcomeName): void;
}

/** The PaymentGateway's operations, as metric labels. */
export type PaymentOperation = 'authorize' | 'read' | 'capture' | 'cancel' | 'refund' | 'read_refund';

/**
 * What a provider call came to: an answer (`ok`), a card declined, a request the intent's state or
 * amounts refused, the provider unreachable or failing (`unavailable`), or a request it can never
 * take (`invalid`: a programming or configuration error, such as a bad key).
 */
export type ProviderCallOutcome = 'ok' | 'declined' | 'refused' | 'unavailable' | 'invalid';

export type PaymentOutcome = 'authorized' | 'captured' | 'voided' | 'failed' | 'expired';

export type RefundOutcomeName = 'pending' | 'succeeded' | 'failed';

/** What an attempt came to: delivered, to be tried again, or failed for good. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed';
