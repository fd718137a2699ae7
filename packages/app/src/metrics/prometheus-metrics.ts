/**
 * The metrics of one service start, recorded with prom-client in a Registry of its own, never the
 * library's global one (tests start several services in one process). Names, labels and the
 * reasons for them: docs/decisions.md, "Metrics".
 */
import type { HttpObserver, RequestSample } from '@storefront/adapters-http';
import { isDomainError } from '@storefront/domain';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type {
  LimiterKind,
  PaymentOperation,
  PaymentOutcome,
  ProviderCallOutcome,
  RedisErrorSource,
  RefundOutcomeName,
  ServiceMetrics,
  WebhookAttemptOutcome,
} from './service-metrics.js';

/** Seconds: a read from memory answers well under a millisecond, a login's hash in tens of them; the request time-out is 10 s. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: Stripe answers in a few hundred ms; a call is cut after 10 s and retried once. */
const PROVIDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/** The `route` label of a request no route matched (404, 405, OPTIONS): one value, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the gauges read when scraped (nothing is sampled in between). */
export interface MetricSources {
  /** The login hasher's semaphore (adapters-crypto's ScryptPasswordHasher `stats`). */
  readonly loginHashing: () => { readonly queued: number; readonly active: number };
  /** The HTTP app's open streams (HttpApp `openStreams`). */
  readonly openStreams: () => number;
  /**
   * Webhook deliveries pending in the store (all instances share it) and the age in seconds of the
   * oldest; absent without webhooks. A store that fails leaves both gauges at their last value.
   */
  readonly webhookBacklog?: () => Promise<{ readonly pending: number; readonly oldestPendingSeconds: number }>;
}

type RequestLabels = 'method' | 'route' | 'status';
const COUNT_NAME = 'storefront_http_request_duration_seconds_count';

/** Decisions of one policy by one limiter, counted in plain numbers. */
interface DecisionCell {
  allowed: number;
  refused: number;
}

export class PrometheusMetrics implements ServiceMetrics {
  readonly registry = new Registry();
  readonly http: HttpObserver;
  private sources: MetricSources | undefined;
  /**
   * Rate-limit decisions by limiter and policy, handed to prom-client when scraped: a labelled
   * increment costs prom-client about 0.3 µs, and there is one per request (docs/performance.md).
   */
  private readonly decided: Record<LimiterKind, Map<string, DecisionCell>> = { redis: new Map(), fallback: new Map(), memory: new Map() };
  private readonly redisErrors: Counter<'source'>;
  private readonly degraded: Gauge;
  private readonly webhookAttempts: Counter<'outcome'>;
  private readonly providerCalls: Counter<'operation' | 'outcome'>;
  private readonly providerDurations: Histogram<'operation' | 'outcome'>;
  private readonly payments: Counter<'outcome'>;
  private readonly refunds: Counter<'outcome'>;

  constructor() {
    const registers = [this.registry];
    // process_* and nodejs_*: CPU, memory, heap, event-loop delay, GC, handles. prom-client keeps
    // its GC observer and event-loop monitor for the life of the process (one start in production).
    collectDefaultMetrics({ register: this.registry });
    const durations = new Histogram<RequestLabels>({
      name: 'storefront_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method, route template and status (a stream: until it ended).',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Counter<RequestLabels>({
      name: 'storefront_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
      // The histogram's counts, read when scraped: the same numbers without a second update per request.
      async collect() {
        const { values } = await durations.get();
        this.reset();
        for (const { metricName, labels, value } of values) if (metricName === COUNT_NAME) this.inc(labels, value);
      },
    });
    const databaseErrors = new Counter({
      name: 'storefront_store_errors_total',
      help: 'Requests that failed because the database did (answered 500 and logged).',
      registers,
    });
    this.http = {
      request: (sample: RequestSample) => {
        durations.observe({ method: sample.method, route: sample.route ?? UNMATCHED_ROUTE, status: sample.status }, sample.durationMs / 1000);
      },
      failure: (error: unknown) => {
        if (isDomainError(error, 'database_unavailable')) databaseErrors.inc();
      },
    };
    const decided = this.decided;
    new Counter<'policy' | 'decision' | 'limiter'>({
      name: 'storefront_rate_limit_decisions_total',
      help: 'Rate-limit decisions, by policy, decision (allowed, refused) and limiter (redis, fallback while Redis fails, memory without Redis).',
      labelNames: ['policy', 'decision', 'limiter'],
      registers,
      collect() {
        this.reset();
        for (const [limiter, byPolicy] of Object.entries(decided)) {
          for (const [policy, cell] of byPolicy) {
            if (cell.allowed > 0) this.inc({ policy, decision: 'allowed', limiter }, cell.allowed);
            if (cell.refused > 0) this.inc({ policy, decision: 'refused', limiter }, cell.refused);
          }
        }
      },
    });
    this.redisErrors = new Counter({
      name: 'storefront_redis_errors_total',
      help: 'Redis errors: failed connects (client) and failed limiter commands (rate_limiter; the fallback decided).',
      labelNames: ['source'],
      registers,
    });
    this.degraded = new Gauge({
      name: 'storefront_rate_limiter_degraded',
      help: '1 while the in-process fallback decides because Redis fails, else 0.',
      registers,
    });
    const sources = (): MetricSources | undefined => this.sources;
    new Gauge({
      name: 'storefront_login_hash_queue_depth',
      help: 'Logins waiting for a password-hashing slot.',
      registers,
      collect() {
        this.set(sources()?.loginHashing().queued ?? 0);
      },
    });
    new Gauge({
      name: 'storefront_login_hash_active',
      help: 'Password hashes running now.',
      registers,
      collect() {
        this.set(sources()?.loginHashing().active ?? 0);
      },
    });
    new Gauge({
      name: 'storefront_event_streams_open',
      help: 'Live order event streams open on this instance.',
      registers,
      collect() {
        this.set(sources()?.openStreams() ?? 0);
      },
    });

    this.webhookAttempts = new Counter({
      name: 'storefront_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded by this instance, by outcome (delivered, retry: tried again later, failed: no attempt left or 410).',
      labelNames: ['outcome'],
      registers,
    });
    this.providerCalls = new Counter({
      name: 'storefront_payment_provider_calls_total',
      help: 'Calls to the payment provider, by operation and outcome (ok, declined, refused, unavailable, invalid).',
      labelNames: ['operation', 'outcome'],
      registers,
    });
    this.providerDurations = new Histogram({
      name: 'storefront_payment_provider_call_duration_seconds',
      help: 'Time the payment provider took to answer, by operation and outcome (the SDK\'s retry included).',
      labelNames: ['operation', 'outcome'],
      buckets: PROVIDER_BUCKETS,
      registers,
    });
    this.payments = new Counter({
      name: 'storefront_payments_total',
      help: 'Card payments by outcome (authorized, captured, voided, failed: a card declined, expired: the window passed or the hold lapsed), once each as this instance heard them from the provider.',
      labelNames: ['outcome'],
      registers,
    });
    this.refunds = new Counter({
      name: 'storefront_refunds_total',
      help: 'Refunds by status reached (pending, succeeded, failed), once each as this instance heard them from the provider.',
      labelNames: ['outcome'],
      registers,
    });
    // One read of the store per scrape, shared by the two gauges that show it.
    let backlog: Promise<{ pending: number; oldestPendingSeconds: number } | undefined> | undefined;
    const readBacklog = () => (backlog ??= (sources()?.webhookBacklog?.() ?? Promise.resolve(undefined)).catch(() => undefined).finally(() => setImmediate(() => (backlog = undefined))));
    new Gauge({
      name: 'storefront_webhook_pending',
      help: 'Webhook deliveries pending in the store (every instance), due or waiting for a retry.',
      registers,
      async collect() {
        const read = await readBacklog();
        if (read !== undefined) this.set(read.pending);
      },
    });
    new Gauge({
      name: 'storefront_webhook_oldest_pending_seconds',
      help: 'Age of the oldest pending webhook delivery in the store, in seconds (0 when none).',
      registers,
      async collect() {
        const read = await readBacklog();
        if (read !== undefined) this.set(read.oldestPendingSeconds);
      },
    });
  }

  /** What the gauges read, once the service is built. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  rateLimitDecided(policy: string, allowed: boolean, limiter: LimiterKind): void {
    const byPolicy = this.decided[limiter];
    let cell = byPolicy.get(policy);
    if (cell === undefined) byPolicy.set(policy, (cell = { allowed: 0, refused: 0 }));
    if (allowed) cell.allowed += 1;
    else cell.refused += 1;
  }

  redisError(source: RedisErrorSource): void {
    this.redisErrors.inc({ source });
  }

  rateLimiterDegraded(degraded: boolean): void {
    this.degraded.set(degraded ? 1 : 0);
  }

  webhookAttempted(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc({ outcome });
  }

  paymentProviderCalled(operation: PaymentOperation, outcome: ProviderCallOutcome, seconds: number): void {
    this.providerCalls.inc({ operation, outcome });
    this.providerDurations.observe({ operation, outcome }, seconds);
  }

  paymentSettled(outcome: PaymentOutcome): void {
    this.payments.inc({ outcome });
  }

  refundSettled(outcome: RefundOutcomeName): void {
    this.refunds.inc({ outcome });
  }

  /** The exposition text, and its Content-Type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
