/**
 * What a card says about the customer's card payment, so that nobody asks a paid customer for money
 * again or hands over a voided one unnoticed: "Paid", "Part refunded 4.50", "Refunded 4.50",
 * "Voided". Orders paid on pickup or delivery (`payment: null`) say nothing: that is how the kitchen
 * has always worked.
 */
import { type KitchenOrder, type PaymentStatus } from './board.js';
import { money } from './total.js';

export interface PaymentBadge {
  readonly text: string;
  /** The badge's look: settled (`paid`), money gone back (`refunded`), nothing to collect by card (`void`). */
  readonly tone: 'paid' | 'refunded' | 'void';
}

const PLAIN: Readonly<Record<Exclude<PaymentStatus, 'partially_refunded' | 'refunded'>, PaymentBadge>> = {
  awaiting: { text: 'Awaiting payment', tone: 'void' },
  authorized: { text: 'Paid', tone: 'paid' },
  captured: { text: 'Paid', tone: 'paid' },
  voided: { text: 'Voided', tone: 'void' },
  failed: { text: 'Payment failed', tone: 'void' },
};

/** The card's payment badge; null when the order is not paid by card. */
export function paymentBadge(order: KitchenOrder): PaymentBadge | null {
  const payment = order.payment;
  if (payment === null || payment === undefined) return null;
  if (payment.status === 'partially_refunded' || payment.status === 'refunded') {
    const refunded = money(payment.amount_refunded, order.currency ?? payment.currency);
    return { text: `${payment.status === 'refunded' ? 'Refunded' : 'Part refunded'} ${refunded}`, tone: 'refunded' };
  }
  return PLAIN[payment.status] ?? null;
}
