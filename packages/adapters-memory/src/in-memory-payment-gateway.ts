/**
 * A PaymentGateway that behaves like a card network (Stripe's model, its test cards, its
 * idempotency), for unit tests and the demo's: the test plays the customer's browser (`confirm`,
 * `authenticate`) and the provider's outages (`available`).
 */
import type { Clock } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import {
  InvalidPaymentRequest,
  systemClock,
  type AuthorizationRequest,
  type CancelRequest,
  type CaptureRequest,
  type PaymentGateway,
  type PaymentIntentOutcome,
  type Refund,
  type RefundOutcome,
  type RefundRequest,
} from '@storefront/domain/adapter-kit';
import {
  CardNetwork,
  CardNetworkError,
  IdempotencyConflict,
  IdempotencyLedger,
  METADATA_VALUE_MAX,
  paymentIntentOutcome,
  refundOutcome,
  refusalOf,
} from '@storefront/adapter-support';

export interface InMemoryPaymentGatewayOptions {
  readonly clock?: Clock | undefined;
  /** How long an authorization may wait for its capture; default Stripe's 7 days. */
  readonly authorizationWindowMs?: number;
}

export class InMemoryPaymentGateway implements PaymentGateway {
  readonly provider = 'memory';
  /** False: every call rejects `payment_provider_unavailable`, as when the provider is down. */
  available = true;
  private readonly network: CardNetwork;
  private readonly ledger = new IdempotencyLedger<PaymentIntentOutcome | RefundOutcome>();

  constructor(options: InMemoryPaymentGatewayOptions = {}) {
    const window = options.authorizationWindowMs;
    this.network = new CardNetwork({ clock: options.clock ?? systemClock, ...(window === undefined ? {} : { authorizationWindowMs: window }) });
  }

  async authorize(request: AuthorizationRequest): Promise<PaymentIntentOutcome> {
    const { orderId, amount, currency, paymentMethod } = request;
    return this.once<PaymentIntentOutcome>(request.idempotencyKey, ['authorize', orderId, amount, currency.toLowerCase(), paymentMethod ?? null], () => {
      const intent = this.network.create({ amount, currency, metadata: { order_id: orderId } });
      return paymentIntentOutcome(paymentMethod === undefined ? intent : this.network.confirm(intent.id, paymentMethod));
    });
  }

  async read(intentId: string): Promise<PaymentIntentOutcome> {
    return this.call(() => paymentIntentOutcome(this.network.intent(intentId)));
  }

  async capture(request: CaptureRequest): Promise<PaymentIntentOutcome> {
    const { intentId, amount } = request;
    return this.once<PaymentIntentOutcome>(request.idempotencyKey, ['capture', intentId, amount ?? null], () =>
      paymentIntentOutcome(this.network.capture(intentId, amount)),
    );
  }

  async cancel(request: CancelRequest): Promise<PaymentIntentOutcome> {
    const { intentId, reason } = request;
    return this.once<PaymentIntentOutcome>(request.idempotencyKey, ['cancel', intentId, reason ?? null], () =>
      paymentIntentOutcome(this.network.cancel(intentId, reason ?? null)),
    );
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const { intentId, amount, category, reference } = request;
    const reason = request.reason.slice(0, METADATA_VALUE_MAX);
    return this.once<RefundOutcome>(request.idempotencyKey, ['refund', intentId, amount, reason, category ?? null, reference], () =>
      refundOutcome(this.network.createRefund({ paymentIntent: intentId, amount, reason: category ?? null, metadata: { reason, refund_id: reference } })),
    );
  }

  async readRefund(refundId: string): Promise<Refund> {
    return this.call(() => refundOutcome(this.network.refund(refundId)));
  }

  /** The customer confirms the intent in the browser with a test card (`pm_card_visa`, `pm_card_chargeDeclined`, ...). */
  async confirm(intentId: string, paymentMethod: string): Promise<PaymentIntentOutcome> {
    return this.call(() => paymentIntentOutcome(this.network.confirm(intentId, paymentMethod)));
  }

  /** The customer passes (or fails) the bank's 3-D Secure step. */
  async authenticate(intentId: string, passed: boolean): Promise<PaymentIntentOutcome> {
    return this.call(() => paymentIntentOutcome(this.network.authenticate(intentId, passed)));
  }

  /** The bank sends a succeeded refund back: it turns `failed` and its amount is refundable again. */
  async failRefund(refundId: string): Promise<Refund> {
    return this.call(() => refundOutcome(this.network.failRefund(refundId)));
  }

  /** Someone refunds in the provider's dashboard, outside the service: the refund carries no `refund_id` (`reference` null). */
  async refundElsewhere(intentId: string, amount: number): Promise<Refund> {
    return this.call(() => refundOutcome(this.network.createRefund({ paymentIntent: intentId, amount, reason: null, metadata: {} })));
  }

  /** The intent's refunds as the provider has them, oldest first (the dashboard's list). */
  async refundsOf(intentId: string): Promise<Refund[]> {
    return this.call(() => this.network.refundsOf(intentId).map(refundOutcome));
  }

  /**
   * Once per key, as Stripe: a decline is kept (the card was tried), a refusal is answered and not
   * kept (Stripe keeps nothing for a request it refused before acting).
   */
  private once<T>(key: string, request: unknown[], work: () => T): Promise<T> {
    return this.call(() =>
      this.ledger.run(key, JSON.stringify(request), () => {
        try {
          return work() as PaymentIntentOutcome | RefundOutcome;
        } catch (error) {
          if (error instanceof CardNetworkError && error.kind === 'declined' && error.intent !== undefined) return paymentIntentOutcome(error.intent);
          throw error;
        }
      }) as T,
    );
  }

  private async call<T>(work: () => T): Promise<T> {
    if (!this.available) {
      throw new DomainError('payment_provider_unavailable', 'The payment provider is unavailable; retry shortly.', { retryAfterSeconds: 5 });
    }
    try {
      return work();
    } catch (error) {
      if (error instanceof IdempotencyConflict) {
        throw new InvalidPaymentRequest('idempotency_key_reused', 'An idempotency key was reused with another request.');
      }
      if (!(error instanceof CardNetworkError)) throw error;
      // Only the outcome unions carry these; readRefund never meets them.
      if (error.kind === 'declined' && error.intent !== undefined) return paymentIntentOutcome(error.intent) as T;
      if (error.kind === 'refused' && error.intent !== undefined) return refusalOf(error.intent.id, error.code) as T;
      throw new InvalidPaymentRequest('invalid_request', error.message);
    }
  }
}
