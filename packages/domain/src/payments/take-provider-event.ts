/**
 * The payment provider's events (`POST /api/payments/stripe/webhook`, after its signature was
 * verified): each event id takes effect once across every instance (ProviderEvents: claimed, applied,
 * completed), an event for an intent we do not know is taken and ignored, and one whose applying
 * fails is released for the provider's retry.
 */
import type { Clock } from '../shared/security.js';
import type { OrderPayments } from './order-payments.js';
import type { PaymentSettler, PaymentNews } from './payment-settler.js';
import type { ProviderEvents } from './provider-events.js';

export interface ProviderEventInput {
  readonly eventId: string;
  /** What it says, as the gateway reads its object; absent for an event type that changes nothing here. */
  readonly news?: PaymentNews;
}

/**
 * `applied`: the order changed (or was found already as the event says); `ignored`: nothing of ours;
 * `repeat`: this id took effect before; `busy`: another applier holds the id now (answer so that the
 * provider sends it again later).
 */
export type ProviderEventResult = 'applied' | 'ignored' | 'repeat' | 'busy';

export class TakeProviderEvent {
  constructor(
    private readonly provider: string,
    private readonly events: ProviderEvents,
    private readonly payments: OrderPayments,
    private readonly settler: PaymentSettler,
    private readonly clock: Clock,
  ) {}

  async execute(input: ProviderEventInput): Promise<ProviderEventResult> {
    if (!(await this.events.claim(this.provider, input.eventId, this.clock.now()))) {
      return (await this.events.isCompleted(this.provider, input.eventId)) ? 'repeat' : 'busy';
    }
    try {
      const news = input.news;
      const intentId = news === undefined ? null : 'intent' in news ? news.intent.intentId : news.refund.intentId;
      const order = intentId === null ? null : await this.payments.findByIntent(intentId);
      if (order !== null) await this.settler.settle(order, news!);
      await this.events.complete(this.provider, input.eventId, this.clock.now());
      return order === null ? 'ignored' : 'applied';
    } catch (error) {
      await this.events.release(this.provider, input.eventId).catch(() => undefined);
      throw error;
    }
  }
}
