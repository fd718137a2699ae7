/**
 * The payment provider, measured: each call counted by operation and outcome with its latency, and
 * what its answers say about payments and refunds handed to PaymentOutcomes. Answers and errors
 * pass through unchanged; nothing about the call (a key, a client secret) reaches a label.
 */
import { isDomainError } from '@storefront/domain';
import type {
  AuthorizationRequest,
  CancelRequest,
  CaptureRequest,
  PaymentGateway,
  PaymentIntentOutcome,
  Refund,
  RefundOutcome,
  RefundRequest,
} from '@storefront/domain/adapter-kit';
import type { PaymentOutcomes } from './payment-outcomes.js';
import type { PaymentOperation, ProviderCallOutcome, ServiceMetrics } from './service-metrics.js';

export type ProviderCallMetrics = Pick<ServiceMetrics, 'paymentProviderCalled'>;

export class MeteredPaymentGateway implements PaymentGateway {
  readonly provider: string;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly metrics: ProviderCallMetrics,
    private readonly outcomes: PaymentOutcomes,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.provider = gateway.provider;
  }

  async authorize(request: AuthorizationRequest): Promise<PaymentIntentOutcome> {
    return this.intentCall('authorize', () => this.gateway.authorize(request));
  }

  async read(intentId: string): Promise<PaymentIntentOutcome> {
    return this.intentCall('read', () => this.gateway.read(intentId));
  }

  async capture(request: CaptureRequest): Promise<PaymentIntentOutcome> {
    return this.intentCall('capture', () => this.gateway.capture(request));
  }

  async cancel(request: CancelRequest): Promise<PaymentIntentOutcome> {
    return this.intentCall('cancel', () => this.gateway.cancel(request), request.reason ?? 'requested_by_customer');
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const outcome = await this.timed('refund', () => this.gateway.refund(request), (answer) => (answer.status === 'refused' ? 'refused' : 'ok'));
    this.outcomes.refund(outcome);
    return outcome;
  }

  async readRefund(refundId: string): Promise<Refund> {
    const refund = await this.timed('read_refund', () => this.gateway.readRefund(refundId), () => 'ok');
    this.outcomes.refund(refund);
    return refund;
  }

  private async intentCall(operation: PaymentOperation, call: () => Promise<PaymentIntentOutcome>, cancelled?: CancelRequest['reason']): Promise<PaymentIntentOutcome> {
    const outcome = await this.timed(operation, call, (answer) => (answer.status === 'declined' ? 'declined' : answer.status === 'refused' ? 'refused' : 'ok'));
    this.outcomes.intent(outcome, cancelled);
    return outcome;
  }

  private async timed<T>(operation: PaymentOperation, call: () => Promise<T>, outcomeOf: (answer: T) => ProviderCallOutcome): Promise<T> {
    const started = this.now();
    const seconds = (): number => (this.now() - started) / 1000;
    let answer: T;
    try {
      answer = await call();
    } catch (error) {
      this.metrics.paymentProviderCalled(operation, isDomainError(error, 'payment_provider_unavailable') ? 'unavailable' : 'invalid', seconds());
      throw error;
    }
    this.metrics.paymentProviderCalled(operation, outcomeOf(answer), seconds());
    return answer;
  }
}
