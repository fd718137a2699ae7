/**
 * The order's side of its card payment (DECISIONS "Payments"): open the intent at placement,
 * capture before the kitchen accepts, give the money back (void, or refund what was captured) when
 * the kitchen will not cook, and read what the provider's answers mean for the order. Every
 * provider call carries a key derived from the order (paymentKeys), so a retry after a crash or a
 * lost answer acts once; every change it plans is applied by the caller as one compare-and-set.
 */
import { DomainError } from '../shared/errors.js';
import type { Order } from '../orders/order.js';
import { isUncooked, planMove, planPaymentChange, type OrderMove } from '../orders/order-lifecycle.js';
import type { PaymentGateway, PaymentIntentOutcome, Refund } from './payment-gateway.js';
import { paymentKeys } from './payment-keys.js';
import { capturedStatus, nextCheck, PAYMENT_QUIET_MS, refundable, withRefunds, type OrderPayment, type RefundRecord } from './order-payment.js';

/** Why an unpaid order was cancelled by its payment. */
export type PaymentCancelReason = 'payment_failed' | 'payment_expired';

/**
 * The refund made when the kitchen will not cook an order it had captured: one per attempt (the
 * first, then one more after each that failed at the bank, up to CANCELLATION_REFUND_ATTEMPTS),
 * whatever is retried.
 */
export const cancellationRefundId = (orderId: string, attempt = 1): string =>
  `rf_${orderId.replace(/^ord_/, '')}_cancel${attempt === 1 ? '' : `_${attempt}`}`;

/**
 * How often the capture of an order the kitchen did not cook is refunded and fails at the bank
 * before it is left to the restaurant (docs/decisions.md "A cancellation's refund that fails"): a
 * card closed since the payment fails every refund, so asking without end would only repeat the
 * failure. A refund the provider refuses as too large (part was refunded elsewhere) is no attempt.
 */
export const CANCELLATION_REFUND_ATTEMPTS = 3;

/** Cancellation refunds of one order in all, refusals included: a bound however the provider answers. */
const CANCELLATION_RECORDS_MAX = 2 * CANCELLATION_REFUND_ATTEMPTS;

export class PaymentDesk {
  constructor(
    readonly gateway: PaymentGateway,
    /** How long a customer has to pay (PAYMENT_WINDOW_MINUTES). */
    readonly windowMs: number,
  ) {}

  /**
   * The order as it is stored when payments are on: awaiting its payment with the intent's client
   * secret (or placed when the provider authorized it at once). The intent's key derives from the
   * order id, reserved with the Idempotency-Key's first claim: one order, one intent.
   */
  async open(order: Order): Promise<Order> {
    const outcome = await this.gateway.authorize({
      orderId: order.orderId,
      amount: order.amount,
      currency: order.currency,
      idempotencyKey: paymentKeys.authorize(order.orderId),
    });
    const authorized = outcome.status === 'authorized';
    if (!authorized && outcome.status !== 'awaiting' && outcome.status !== 'declined' && outcome.status !== 'requires_action') {
      throw new DomainError('payment_provider_unavailable', `The payment provider answered ${outcome.status} for a new payment.`, {
        retryAfterSeconds: 5,
      });
    }
    // Built in one literal each (no spreads of spreads): this runs on every paid placement.
    const at = order.createdAt;
    const payBy = new Date(at.getTime() + this.windowMs);
    const payment: OrderPayment = {
      provider: this.gateway.provider,
      intentId: outcomeIntent(outcome),
      clientSecret: authorized ? null : outcome.clientSecret,
      status: authorized ? 'authorized' : 'awaiting',
      amount: order.amount,
      currency: order.currency,
      amountCaptured: 0,
      amountRefunded: 0,
      refunds: [],
      payBy,
      checkAt: authorized ? null : nextCheck({ status: 'awaiting', payBy, refunds: [] }, at),
    };
    if (authorized) return { ...order, payment };
    return { ...order, status: 'awaiting_payment', statusHistory: [{ status: 'awaiting_payment', at }], payment };
  }

  /** Gives up an intent that no stored order will ever use (its placement lost to another). */
  async abandon(order: Order): Promise<void> {
    if (order.payment === undefined) return;
    await this.gateway.cancel({ intentId: order.payment.intentId, reason: 'abandoned', idempotencyKey: paymentKeys.cancel(order.orderId) });
  }

  /**
   * Captures the whole authorized amount before the kitchen accepts: the payment as captured.
   * An intent that can no longer be captured → `payment_failed` (the order stays placed).
   */
  async capture(order: Order, payment: OrderPayment): Promise<OrderPayment> {
    if (payment.status !== 'authorized') return payment;
    const outcome = await this.gateway.capture({ intentId: payment.intentId, idempotencyKey: paymentKeys.capture(order.orderId) });
    if (outcome.status === 'captured' || outcome.status === 'refunded') {
      return { ...payment, status: capturedStatus(outcome.amountCaptured, payment.amountRefunded), amountCaptured: outcome.amountCaptured, clientSecret: null };
    }
    throw new DomainError('payment_failed', `The payment cannot be captured (it is ${outcome.status}); reject the order.`);
  }

  /**
   * The payment as stored with a rejection or cancellation, before the provider is told (DECISIONS
   * "Payments"; docs/decisions.md "The kitchen's word first, the money after"): the move is stored
   * first, so a capture or a refund racing it can never be undone behind the order's back. An intent
   * not captured keeps its status with a check due (the void is owed: nextReturn makes it, or the
   * sweeper after a crash); a captured one records the whole refund, pending, reserving its amount.
   */
  planRelease(order: Order, now: Date): OrderPayment | undefined {
    const payment = order.payment;
    if (payment === undefined) return undefined;
    if (voidOwed(payment)) return { ...payment, clientSecret: null, checkAt: new Date(now.getTime() + PAYMENT_QUIET_MS) };
    return owedBack(order.orderId, payment, now);
  }

  /**
   * The next step of giving the money back (a PlanChange), planned on the order as it stands, or null
   * when nothing is owed: the void of a rejected or cancelled order's intent (found captured by a
   * capture whose answer was lost or that raced the move: its whole refund recorded instead), then
   * each recorded refund the provider has not answered, asked again under its own key.
   */
  async nextReturn(order: Order, now: Date): Promise<OrderMove | null> {
    const payment = order.payment;
    if (payment === undefined) return null;
    if (isUncooked(order.status) && voidOwed(payment)) return this.voidIntent(order, payment, now);
    const unasked = payment.refunds.find((record) => record.status === 'pending' && record.providerRefundId === null);
    return unasked === undefined ? null : askRefund(this.gateway, order, unasked.refundId, now);
  }

  private async voidIntent(order: Order, payment: OrderPayment, now: Date): Promise<OrderMove> {
    // The expiry's cancel and the kitchen's or customer's void go under keys (and reasons) of their own.
    const expired = order.reason === 'payment_expired';
    const outcome = await this.gateway.cancel({
      intentId: payment.intentId,
      reason: expired ? 'abandoned' : 'requested_by_customer',
      idempotencyKey: expired ? paymentKeys.cancel(order.orderId) : paymentKeys.void(order.orderId),
    });
    const intent = outcome.status === 'canceled' ? outcome : await this.gateway.read(payment.intentId);
    // Cancelled (by this call, or by one whose answer was lost): nothing is charged.
    if (intent.status === 'canceled') return planPaymentChange(order, voided(payment, now), {}, now);
    // Captured (refunded too, when another instance's void found the capture first and its refund
    // was made meanwhile: then this plan loses its compare-and-set and is planned again).
    if (intent.status !== 'captured' && intent.status !== 'refunded') {
      throw new DomainError('payment_failed', `The payment cannot be cancelled (it is ${intent.status}).`);
    }
    const captured: OrderPayment = { ...payment, status: 'captured', amountCaptured: intent.amountCaptured };
    return planPaymentChange(order, owedBack(order.orderId, captured, now), {}, now);
  }
}

/** An intent not captured whose order no longer wants it: cancelling it is owed. */
function voidOwed(payment: OrderPayment): boolean {
  return payment.status === 'awaiting' || payment.status === 'authorized';
}

function voided(payment: OrderPayment, now: Date): OrderPayment {
  const next: OrderPayment = { ...payment, status: 'voided', clientSecret: null };
  return { ...next, checkAt: nextCheck(next, now) };
}

const CANCELLATION = 'cancellation';

/**
 * The captured payment of an order the kitchen will not cook, with `owed` (at most what it still
 * holds by its books) recorded as the next cancellation refund (pending, reserving its amount; its
 * id derives from the order and the record's number). Unchanged when nothing is owed or every
 * attempt was made.
 */
function owedBack(orderId: string, payment: OrderPayment, now: Date, owed = refundable(payment)): OrderPayment {
  const amount = Math.min(refundable(payment), owed);
  const cancellations = payment.refunds.filter((record) => record.fingerprint === CANCELLATION);
  const failedAtBank = cancellations.filter((record) => record.status === 'failed' && record.providerRefundId !== null).length;
  const attempt = cancellations.length + 1;
  if (amount <= 0 || failedAtBank >= CANCELLATION_REFUND_ATTEMPTS || attempt > CANCELLATION_RECORDS_MAX) return payment;
  const record: RefundRecord = {
    refundId: cancellationRefundId(orderId, attempt),
    providerRefundId: null,
    amount,
    reason: 'order cancelled by the kitchen',
    status: 'pending',
    createdAt: now,
    fingerprint: CANCELLATION,
  };
  return withRefunds(payment, [...payment.refunds, record], now);
}

/**
 * The payment after a refund's answer or news (`refunds` as they now stand). An order the kitchen
 * will not cook owes `freed` again (what a refund that failed gave back to the books, or what the
 * intent still holds after a refusal as too large): its next cancellation refund is recorded with
 * the failure, in the same change, so the sweeper asks it whoever was told.
 */
function refundsSettled(order: Order, payment: OrderPayment, refunds: readonly RefundRecord[], now: Date, freed: number): OrderPayment {
  const next = withRefunds(payment, refunds, now);
  const owesRefund = isUncooked(order.status) && !voidOwed(next);
  return owesRefund && freed > 0 ? owedBack(order.orderId, next, now, freed) : next;
}

function outcomeIntent(outcome: PaymentIntentOutcome): string {
  return outcome.intentId;
}

/**
 * What the intent as the provider now has it means for an order awaiting its payment: placed once
 * authorized; cancelled once the intent is cancelled (`payment_expired` after the window, else
 * `payment_failed`); null while the customer may still pay (a declined card may be followed by a
 * good one). Past awaiting, only a cancelled intent matters: it cancels a placed order whose
 * authorization lapsed, and records the void a rejection or cancellation owes as made; any other
 * news changes nothing our own calls did not.
 */
export function settleIntent(order: Order, outcome: PaymentIntentOutcome, now: Date): OrderMove | null {
  const payment = order.payment;
  if (payment === undefined || outcome.status === 'refused' || outcome.intentId !== payment.intentId) return null;
  if (order.status === 'placed' && outcome.status === 'canceled' && payment.status === 'authorized') {
    // The authorization lapsed before the kitchen accepted (Stripe cancels one not captured within
    // 7 days), or was cancelled at the provider: nothing can be captured, the order leaves the kitchen.
    return cancelUnpaid(order, 'payment_expired', now);
  }
  if (order.status !== 'awaiting_payment') {
    // The void a rejection or cancellation owes, made (its answer may not have been recorded yet).
    const owed = isUncooked(order.status) && voidOwed(payment);
    return owed && outcome.status === 'canceled' ? planPaymentChange(order, voided(payment, now), {}, now) : null;
  }
  if (outcome.status === 'authorized' || outcome.status === 'captured') {
    const authorized: OrderPayment = { ...payment, status: 'authorized', clientSecret: null, checkAt: null };
    return { ...planMove(order, { to: 'placed', by: 'payment' }, now), payment: authorized };
  }
  if (outcome.status === 'canceled') return cancelUnpaid(order, payment.payBy.getTime() <= now.getTime() ? 'payment_expired' : 'payment_failed', now);
  return null;
}

/**
 * The move that cancels an order left unpaid past its window (`payment_expired`), stored before its
 * intent is cancelled (so that an authorization racing it can no longer place the order): the void
 * is owed (nextReturn makes it).
 */
export function expireUnpaid(order: Order, now: Date): OrderMove {
  const payment = order.payment!;
  const owed: OrderPayment = { ...payment, clientSecret: null, checkAt: new Date(now.getTime() + PAYMENT_QUIET_MS) };
  return { ...planMove(order, { to: 'cancelled', by: 'payment', reason: 'payment_expired' }, now), payment: owed };
}

/** The move that cancels an order whose intent the provider has cancelled: nothing was charged. */
function cancelUnpaid(order: Order, reason: PaymentCancelReason, now: Date): OrderMove {
  const payment = order.payment!;
  const status = reason === 'payment_expired' ? 'voided' : 'failed';
  return { ...planMove(order, { to: 'cancelled', by: 'payment', reason }, now), payment: { ...payment, status, clientSecret: null, checkAt: null } };
}

/**
 * What a refund as the provider now has it means for the order: its record settled (`pending` →
 * `succeeded` or `failed`, `succeeded` → `failed`; a failed refund's amount may be refunded again), or null when nothing
 * changes. The record is found by the provider's id, or (when the answer to our call was lost) by
 * our id, which the provider keeps with the refund (`reference`). A refund made elsewhere matches
 * no record and changes nothing.
 */
export function settleRefund(order: Order, refund: Refund, now: Date): OrderMove | null {
  const payment = order.payment;
  if (payment === undefined) return null;
  const index = payment.refunds.findIndex(
    (record) => record.providerRefundId === refund.refundId || (record.providerRefundId === null && record.refundId === refund.reference),
  );
  if (index < 0) return null;
  const record = payment.refunds[index]!;
  if (record.status === refund.status && record.providerRefundId === refund.refundId) return null;
  // Settled once, it changes again only from succeeded to failed: a refund can fail after it
  // succeeded (the card closed meanwhile); its amount may then be refunded again.
  const settled = record.status !== 'pending' && record.providerRefundId !== null;
  if (settled && !(record.status === 'succeeded' && refund.status === 'failed')) return null;
  const refunds = payment.refunds.map((r, i) => (i === index ? { ...r, providerRefundId: refund.refundId, status: refund.status } : r));
  return planPaymentChange(order, refundsSettled(order, payment, refunds, now, refund.status === 'failed' ? record.amount : 0), {}, now);
}

/**
 * Asks the provider for a recorded refund (again: the key derives from our record, so a retry is the
 * same refund) and plans the record's update with the provider's answer: its id and status, or
 * `failed` when the provider refuses it (final: a retry answers it, never asks again). Null when the
 * record is gone or already answered. Stripe answers a key sent again with its first answer, which
 * the bank may have overtaken since (a refund sent back): a `succeeded` is read before it is
 * recorded, and recorded `pending` when the read fails (the sweeper reads it then). A cancellation
 * refund refused as too large (part was refunded elsewhere) is owed again for what the intent holds.
 */
export async function askRefund(gateway: PaymentGateway, order: Order, refundId: string, now: Date): Promise<OrderMove | null> {
  const payment = order.payment;
  const record = payment?.refunds.find((r) => r.refundId === refundId);
  if (payment === undefined || record === undefined || record.providerRefundId !== null || record.status !== 'pending') return null;
  const outcome = await gateway.refund({
    intentId: payment.intentId,
    amount: record.amount,
    reason: record.reason,
    reference: refundId,
    idempotencyKey: paymentKeys.refund(refundId),
  });
  if (outcome.status === 'refused') {
    const refunds = payment.refunds.map((r): RefundRecord => (r.refundId === refundId ? { ...r, status: 'failed' } : r));
    const left = record.fingerprint === CANCELLATION && outcome.refusal === 'amount_too_large' ? leftOnIntent(await gateway.read(payment.intentId)) : 0;
    return planPaymentChange(order, refundsSettled(order, payment, refunds, now, left), {}, now);
  }
  const status = outcome.status === 'succeeded' ? await gateway.readRefund(outcome.refundId).then((r) => r.status, () => 'pending' as const) : outcome.status;
  const answered: RefundRecord = { ...record, providerRefundId: outcome.refundId, status };
  const refunds = payment.refunds.map((r) => (r.refundId === refundId ? answered : r));
  return planPaymentChange(order, refundsSettled(order, payment, refunds, now, status === 'failed' ? record.amount : 0), {}, now);
}

/** What the intent still holds to refund, as the provider has it. */
function leftOnIntent(intent: PaymentIntentOutcome): number {
  return intent.status === 'captured' || intent.status === 'refunded' ? Math.max(0, intent.amountCaptured - intent.amountRefunded) : 0;
}
