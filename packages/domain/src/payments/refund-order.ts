/**
 * A staff refund (`POST /api/staff/orders/{order_id}/refunds`): at most what was captured and not yet
 * refunded. The refund is recorded first (as `pending`, reserving its amount, one compare-and-set on
 * the order) and only then asked of the provider with a key derived from the record, so two refunds
 * at once can never together pass the capture, and a retry (the staff's, with the same
 * Idempotency-Key, or the sweeper's) asks for the same refund. The provider's later events settle it.
 */
import { DomainError } from '../shared/errors.js';
import { sha256Hex } from '../shared/ids.js';
import type { Clock } from '../shared/security.js';
import { isIntegerIn, Issues } from '../shared/validation.js';
import type { Order } from '../orders/order.js';
import { notFound } from '../orders/order-access.js';
import { parseReason, planPaymentChange } from '../orders/order-lifecycle.js';
import type { OrderRepository } from '../orders/order-repository.js';
import { MONEY_RULE } from '../shared/money.js';
import { refundable, withRefunds, type RefundRecord } from './order-payment.js';
import { askRefund, type PaymentDesk } from './payment-desk.js';

export interface RefundOrderInput {
  readonly orderId: string;
  /** Minor units, at least 1. */
  readonly amount: unknown;
  /** The staff's words: one line, 1 to 200 characters. */
  readonly reason: unknown;
  readonly idempotencyKey?: string | undefined;
}

export interface RefundOrderResult {
  readonly refund: RefundRecord;
  readonly order: Order;
  /** True when an earlier request with the same Idempotency-Key made this refund. */
  readonly replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const MAX_ATTEMPTS = 5;

export class RefundOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly desk: PaymentDesk | null,
    private readonly clock: Clock,
    /** Told after a change is stored (the event relay publishes it). */
    private readonly stored: () => void = () => undefined,
  ) {}

  async execute(input: RefundOrderInput): Promise<RefundOrderResult> {
    const issues = new Issues();
    if (!isIntegerIn(input.amount, 1, MONEY_RULE.maximum)) issues.add('amount', `must be a whole number from 1 to ${MONEY_RULE.maximum}`);
    const reason = input.reason === undefined ? undefined : parseReason(input.reason, issues);
    if (input.reason === undefined) issues.add('reason', 'is required');
    if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(input.idempotencyKey)) {
      issues.add('idempotencyKey', 'must be 1 to 255 visible ASCII characters');
    }
    issues.throwIfAny();
    const amount = input.amount as number;
    const fingerprint = `${amount}:${reason!}`;
    const refundId =
      input.idempotencyKey === undefined
        ? `rf_${(await sha256Hex(`${input.orderId}:${this.clock.now().getTime()}:${Math.random()}`)).slice(0, 24)}`
        : `rf_${(await sha256Hex(`${input.orderId}\n${input.idempotencyKey}`)).slice(0, 24)}`;

    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const order = await this.orders.findById(input.orderId);
      if (order === null) throw notFound();
      const payment = order.payment;
      const existing = payment?.refunds.find((record) => record.refundId === refundId);
      if (existing !== undefined) {
        if (existing.fingerprint !== fingerprint) {
          throw new DomainError('idempotency_key_reused', 'This idempotency key was used with a different refund.');
        }
        return { ...(await this.ask(order, refundId)), replayed: true };
      }
      if (payment === undefined || this.desk === null || amount > refundable(payment)) {
        const left = payment === undefined ? 0 : refundable(payment);
        throw new DomainError('refund_exceeds_captured', `At most ${left} can be refunded.`, {
          details: [{ path: 'amount', message: `must be at most ${left} (captured and not yet refunded)` }],
        });
      }
      const now = this.clock.now();
      const record: RefundRecord = { refundId, providerRefundId: null, amount, reason: reason!, status: 'pending', createdAt: now, fingerprint };
      const change = planPaymentChange(order, withRefunds(payment, [...payment.refunds, record], now), { refundId }, now);
      const recorded = await this.orders.applyMove(change);
      if (recorded === null) continue;
      this.stored();
      return { ...(await this.ask(recorded, refundId)), replayed: false };
    }
    throw new DomainError('idempotency_key_in_use', 'The order changed while the refund was being recorded; retry.');
  }

  /** Asks the provider for the recorded refund (once it has answered: nothing to ask) and records its answer. */
  private async ask(order: Order, refundId: string): Promise<Omit<RefundOrderResult, 'replayed'>> {
    let current = order;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const move = await askRefund(this.desk!.gateway, current, refundId, this.clock.now());
      if (move === null) break;
      const answered = await this.orders.applyMove(move);
      if (answered !== null) {
        this.stored();
        current = answered;
        break;
      }
      const again = await this.orders.findById(order.orderId);
      if (again === null) throw notFound();
      current = again;
    }
    const refund = current.payment!.refunds.find((record) => record.refundId === refundId)!;
    return { refund, order: current };
  }
}

