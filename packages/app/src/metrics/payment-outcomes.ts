/**
 * Payments and refunds by outcome, read from what the provider tells this instance: the answers to
 * its calls (MeteredPaymentGateway) and the events it receives. The same news comes more than once
 * (a read after an event, a repeated event, the sweeper's look), so each intent's outcome and each
 * refund's status is counted once, remembered for the last RECENT of them.
 */
import type { CancelReason, PaymentIntentOutcome, PaymentNews, RefundOutcome } from '@storefront/domain/adapter-kit';
import type { ServiceMetrics } from './service-metrics.js';

export type OutcomeMetrics = Pick<ServiceMetrics, 'paymentSettled' | 'refundSettled'>;

/** Outcomes remembered; past this the oldest is forgotten (a repeat of it would count again). */
const RECENT = 10_000;

export class PaymentOutcomes {
  private readonly seen = new Set<string>();

  constructor(private readonly metrics: OutcomeMetrics) {}

  /**
   * An intent as the provider answered it. `cancelled`: the answer to our own cancellation, and its
   * reason (`abandoned`: the window passed unpaid, or the order was never stored).
   */
  intent(outcome: PaymentIntentOutcome, cancelled?: CancelReason): void {
    if (outcome.status === 'refused') return;
    const id = outcome.intentId;
    if (outcome.status === 'authorized') this.once(`${id}:authorized`, () => this.metrics.paymentSettled('authorized'));
    else if (outcome.status === 'captured' || outcome.status === 'refunded') this.once(`${id}:captured`, () => this.metrics.paymentSettled('captured'));
    else if (outcome.status === 'declined') this.once(`${id}:declined:${outcome.declineCode}`, () => this.metrics.paymentSettled('failed'));
    else if (outcome.status === 'canceled') {
      // Heard of otherwise (an event, a read), a cancellation is ours heard again, unless it lapsed.
      const name = outcome.expired || cancelled === 'abandoned' ? 'expired' : cancelled === undefined ? null : 'voided';
      if (name !== null) this.once(`${id}:canceled`, () => this.metrics.paymentSettled(name));
    }
  }

  /** A refund as the provider answered it; a refused one never became a refund: it failed. */
  refund(outcome: RefundOutcome): void {
    if (outcome.status === 'refused') return this.metrics.refundSettled('failed');
    const status = outcome.status;
    this.once(`${outcome.refundId}:${status}`, () => this.metrics.refundSettled(status));
  }

  /** What a provider's event says. */
  news(news: PaymentNews): void {
    if ('intent' in news) this.intent(news.intent);
    else this.refund(news.refund);
  }

  private once(key: string, count: () => void): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.seen.size > RECENT) this.seen.delete(this.seen.values().next().value!);
    count();
  }
}
