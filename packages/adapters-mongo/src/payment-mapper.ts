/**
 * An order's card payment as stored: one subdocument `payment` of the order, copied field by field
 * (the caller's extra properties and later edits never reach the store). Amounts are BSON int64 as
 * every amount of the order (money.ts); `payBy`, `checkAt` and each refund's `createdAt` are BSON
 * dates, `checkAt` null when nothing waits on the provider: the checks' partial index
 * (collections.ts) holds only the dates, and the intents' unique index only string intent ids.
 */
import type { OrderPayment, OrderPaymentStatus, PaymentChangeNote, RefundRecord, RefundStatus } from '@storefront/domain/adapter-kit';
import { fromStoredMoney, toStoredMoney, type StoredMoney } from './money.js';

export interface RefundDocument {
  refundId: string;
  providerRefundId: string | null;
  amount: StoredMoney;
  reason: string;
  status: RefundStatus;
  createdAt: Date;
  fingerprint: string;
}

export interface PaymentDocument {
  provider: string;
  intentId: string;
  clientSecret: string | null;
  status: OrderPaymentStatus;
  amount: StoredMoney;
  currency: string;
  amountCaptured: StoredMoney;
  amountRefunded: StoredMoney;
  refunds: RefundDocument[];
  payBy: Date;
  checkAt: Date | null;
}

/** A history entry's note on a payment-only change: `{}` for a settlement, `{refundId}` for a refund. */
export interface PaymentChangeDocument {
  refundId?: string;
}

export function toPaymentDocument(payment: OrderPayment): PaymentDocument {
  return {
    provider: payment.provider,
    intentId: payment.intentId,
    clientSecret: payment.clientSecret,
    status: payment.status,
    amount: toStoredMoney(payment.amount),
    currency: payment.currency,
    amountCaptured: toStoredMoney(payment.amountCaptured),
    amountRefunded: toStoredMoney(payment.amountRefunded),
    refunds: payment.refunds.map(toRefundDocument),
    payBy: copyDate(payment.payBy),
    checkAt: payment.checkAt === null ? null : copyDate(payment.checkAt),
  };
}

export function toOrderPayment(document: PaymentDocument): OrderPayment {
  return {
    provider: document.provider,
    intentId: document.intentId,
    clientSecret: document.clientSecret,
    status: document.status,
    amount: fromStoredMoney(document.amount),
    currency: document.currency,
    amountCaptured: fromStoredMoney(document.amountCaptured),
    amountRefunded: fromStoredMoney(document.amountRefunded),
    refunds: document.refunds.map(toRefundRecord),
    payBy: document.payBy,
    checkAt: document.checkAt,
  };
}

/** Both ways (the note and its document have the same one optional field). */
export function copyPaymentChange(change: PaymentChangeNote | PaymentChangeDocument): PaymentChangeNote {
  return change.refundId === undefined ? {} : { refundId: change.refundId };
}

function toRefundDocument(refund: RefundRecord): RefundDocument {
  return {
    refundId: refund.refundId,
    providerRefundId: refund.providerRefundId,
    amount: toStoredMoney(refund.amount),
    reason: refund.reason,
    status: refund.status,
    createdAt: copyDate(refund.createdAt),
    fingerprint: refund.fingerprint,
  };
}

function toRefundRecord(document: RefundDocument): RefundRecord {
  return {
    refundId: document.refundId,
    providerRefundId: document.providerRefundId,
    amount: fromStoredMoney(document.amount),
    reason: document.reason,
    status: document.status,
    createdAt: document.createdAt,
    fingerprint: document.fingerprint,
  };
}

function copyDate(date: Date): Date {
  return new Date(date.getTime());
}
