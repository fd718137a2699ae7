/**
 * An order's payment as its three columns (migration 10): the intent id and the next check are
 * columns of their own (the unique index, the sweeper's queue), the rest is `payment` jsonb with
 * times as ISO strings. Each field is stored once and copied field by field both ways, so that
 * neither extra properties of the caller's objects nor later edits to them reach the store.
 */
import type { OrderPayment, RefundRecord } from '@storefront/domain/adapter-kit';

interface RefundJson {
  refundId: string;
  providerRefundId: string | null;
  amount: number;
  reason: string;
  status: RefundRecord['status'];
  createdAt: string;
  fingerprint: string;
}

export interface PaymentJson {
  provider: string;
  clientSecret: string | null;
  status: OrderPayment['status'];
  amount: number;
  currency: string;
  amountCaptured: number;
  amountRefunded: number;
  refunds: RefundJson[];
  payBy: string;
}

export interface PaymentColumns {
  payment: PaymentJson | null;
  payment_intent_id: string | null;
  payment_check_at: Date | null;
}

/** The three columns' parameters (payment as JSON text), NULLs for an order without a payment. */
export function paymentParameters(payment: OrderPayment | undefined): [string | null, string | null, Date | null] {
  if (payment === undefined) return [null, null, null];
  const json: PaymentJson = {
    provider: payment.provider,
    clientSecret: payment.clientSecret,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    amountCaptured: payment.amountCaptured,
    amountRefunded: payment.amountRefunded,
    refunds: payment.refunds.map(refundJson),
    payBy: payment.payBy.toISOString(),
  };
  return [JSON.stringify(json), payment.intentId, payment.checkAt === null ? null : new Date(payment.checkAt.getTime())];
}

/** The payment read back, or undefined (the order has none). */
export function paymentOf(row: PaymentColumns): OrderPayment | undefined {
  const json = row.payment;
  if (json === null || row.payment_intent_id === null) return undefined;
  return {
    provider: json.provider,
    intentId: row.payment_intent_id,
    clientSecret: json.clientSecret,
    status: json.status,
    amount: json.amount,
    currency: json.currency,
    amountCaptured: json.amountCaptured,
    amountRefunded: json.amountRefunded,
    refunds: json.refunds.map(refundOf),
    payBy: new Date(json.payBy),
    checkAt: row.payment_check_at,
  };
}

function refundJson(refund: RefundRecord): RefundJson {
  return {
    refundId: refund.refundId,
    providerRefundId: refund.providerRefundId,
    amount: refund.amount,
    reason: refund.reason,
    status: refund.status,
    createdAt: refund.createdAt.toISOString(),
    fingerprint: refund.fingerprint,
  };
}

function refundOf(json: RefundJson): RefundRecord {
  return {
    refundId: json.refundId,
    providerRefundId: json.providerRefundId,
    amount: json.amount,
    reason: json.reason,
    status: json.status,
    createdAt: new Date(json.createdAt),
    fingerprint: json.fingerprint,
  };
}
