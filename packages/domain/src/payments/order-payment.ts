/**
 * An order's card payment as the order keeps it (DECISIONS "Payments"): the provider's intent, what
 * it holds, what was captured and refunded, and the refunds asked for. Every change of it is a
 * change of the order (a new version, compare-and-set), so that the amounts can never pass each
 * other: a refund is recorded, reserving its amount, before the provider is asked for it.
 */
import type { Refund } from './payment-gateway.js';

/** As the order shows it. */
export type OrderPaymentStatus = 'awaiting' | 'authorized' | 'captured' | 'voided' | 'partially_refunded' | 'refunded' | 'failed';

export const ORDER_PAYMENT_STATUSES: readonly OrderPaymentStatus[] = [
  'awaiting',
  'authorized',
  'captured',
  'voided',
  'partially_refunded',
  'refunded',
  'failed',
];

export type RefundStatus = Refund['status'];

/** A refund the staff asked for (or the one a cancellation after capture made). */
export interface RefundRecord {
  /** Ours, made before the provider is called (`rf_…`): its provider idempotency key derives from it. */
  readonly refundId: string;
  /** The provider's id, once it answered. */
  readonly providerRefundId: string | null;
  readonly amount: number;
  /** The staff's words (kept by the provider as metadata). */
  readonly reason: string;
  /** `pending` until the provider settles it; a pending refund's amount is counted as refunded. */
  readonly status: RefundStatus;
  readonly createdAt: Date;
  /** What the staff's Idempotency-Key was used with (amount and reason), to tell a replay from a reuse. */
  readonly fingerprint: string;
}

export interface OrderPayment {
  /** The gateway's name (`stripe`, `memory`). */
  readonly provider: string;
  /** The provider's intent (`pi_…`): one per order, unique across orders. */
  readonly intentId: string;
  /** For the front end to confirm the intent (Stripe.js); shown to the owner only while awaiting. */
  readonly clientSecret: string | null;
  readonly status: OrderPaymentStatus;
  /** What the customer pays (the order's amount), in minor units of `currency`. */
  readonly amount: number;
  readonly currency: string;
  readonly amountCaptured: number;
  /** Succeeded and pending refunds together: what may still be refunded is captured − refunded. */
  readonly amountRefunded: number;
  /** Oldest first. */
  readonly refunds: readonly RefundRecord[];
  /** Until when the customer may pay; after it the order is cancelled (`payment_expired`). */
  readonly payBy: Date;
  /**
   * When the sweeper should next read the provider for this order (an awaiting payment without
   * news, a refund without the provider's answer); null when nothing waits on the provider. Stores
   * index it; OrderPayments.claimChecks moves it forward as a lease.
   */
  readonly checkAt: Date | null;
}

/** What a payment-only change of an order (its status stays) records in the history. */
export interface PaymentChangeNote {
  /** The refund this change asked for: its event is `order.refunded`. Absent: a settlement (`order.payment`). */
  readonly refundId?: string;
}

/** How long without news before the sweeper reads an awaiting intent or a refund (DECISIONS: 2 minutes). */
export const PAYMENT_QUIET_MS = 2 * 60_000;

/** What may still be refunded. */
export function refundable(payment: OrderPayment): number {
  return Math.max(0, payment.amountCaptured - payment.amountRefunded);
}

/** The status a captured payment shows after its refunds. */
export function capturedStatus(amountCaptured: number, amountRefunded: number): OrderPaymentStatus {
  if (amountRefunded <= 0) return 'captured';
  return amountRefunded >= amountCaptured ? 'refunded' : 'partially_refunded';
}

/**
 * When the sweeper should look next: an awaiting payment at the window's end or after a quiet
 * spell, whichever is first; a refund that the provider has not answered (or settled) after a quiet
 * spell; otherwise never.
 */
export function nextCheck(payment: Pick<OrderPayment, 'status' | 'payBy' | 'refunds'>, now: Date): Date | null {
  const quiet = new Date(now.getTime() + PAYMENT_QUIET_MS);
  if (payment.status === 'awaiting') return payment.payBy.getTime() < quiet.getTime() ? payment.payBy : quiet;
  if (payment.refunds.some((refund) => refund.status === 'pending')) return quiet;
  return null;
}

/** The payment with its amounts recomputed from its refunds (pending and succeeded count). */
export function withRefunds(payment: OrderPayment, refunds: readonly RefundRecord[], now: Date): OrderPayment {
  const amountRefunded = refunds.reduce((sum, refund) => (refund.status === 'failed' ? sum : sum + refund.amount), 0);
  const status = payment.amountCaptured > 0 ? capturedStatus(payment.amountCaptured, amountRefunded) : payment.status;
  const next = { ...payment, refunds, amountRefunded, status };
  return { ...next, checkAt: nextCheck(next, now) };
}
