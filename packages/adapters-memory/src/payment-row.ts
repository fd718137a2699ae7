/**
 * An order's card payment as a memory row keeps it: frozen, dates as numbers (a Date handed out
 * could be changed with setTime), so that each read builds a payment of its own. Orders without
 * one carry nothing.
 */
import type { OrderPayment, RefundRecord } from '@storefront/domain/adapter-kit';

export interface RowRefund extends Omit<RefundRecord, 'createdAt'> {
  readonly createdAtMs: number;
}

export interface RowPayment extends Omit<OrderPayment, 'refunds' | 'payBy' | 'checkAt'> {
  readonly refunds: readonly RowRefund[];
  readonly payByMs: number;
  /** null when nothing waits on the provider: the store's checks leave the order out. */
  readonly checkAtMs: number | null;
}

const NO_REFUNDS: readonly RowRefund[] = Object.freeze([]);

export function toRowPayment(payment: OrderPayment): RowPayment {
  return Object.freeze({
    provider: payment.provider,
    intentId: payment.intentId,
    clientSecret: payment.clientSecret,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    amountCaptured: payment.amountCaptured,
    amountRefunded: payment.amountRefunded,
    refunds: payment.refunds.length === 0 ? NO_REFUNDS : Object.freeze(payment.refunds.map(toRowRefund)),
    payByMs: payment.payBy.getTime(),
    checkAtMs: payment.checkAt === null ? null : payment.checkAt.getTime(),
  });
}

/** The payment with its next check moved to `checkAtMs` (a claim's lease). */
export function withCheckAt(payment: RowPayment, checkAtMs: number): RowPayment {
  return Object.freeze({ ...payment, checkAtMs });
}

export function paymentOf(row: RowPayment): OrderPayment {
  return {
    provider: row.provider,
    intentId: row.intentId,
    clientSecret: row.clientSecret,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    amountCaptured: row.amountCaptured,
    amountRefunded: row.amountRefunded,
    refunds: row.refunds.map(refundOf),
    payBy: new Date(row.payByMs),
    checkAt: row.checkAtMs === null ? null : new Date(row.checkAtMs),
  };
}

function toRowRefund(refund: RefundRecord): RowRefund {
  return Object.freeze({
    refundId: refund.refundId,
    providerRefundId: refund.providerRefundId,
    amount: refund.amount,
    reason: refund.reason,
    status: refund.status,
    createdAtMs: refund.createdAt.getTime(),
    fingerprint: refund.fingerprint,
  });
}

function refundOf(row: RowRefund): RefundRecord {
  return {
    refundId: row.refundId,
    providerRefundId: row.providerRefundId,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    createdAt: new Date(row.createdAtMs),
    fingerprint: row.fingerprint,
  };
}
