import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { KitchenOrder, Payment } from '../src/board.js';
import { paymentBadge } from '../src/payment.js';

function order(payment: Payment | null | undefined, currency = 'USD'): KitchenOrder {
  return { order_id: 'ord_a', status: 'placed', version: 2, created_at: '2026-11-25T12:00:00.000Z', items: [], amount: 2380, currency, payment };
}

function card(overrides: Partial<Payment>): Payment {
  return { provider: 'stripe', status: 'captured', amount: 2380, currency: 'usd', amount_captured: 2380, amount_refunded: 0, payment_intent_id: 'pi_1', refunds: [], ...overrides };
}

describe('A card\'s payment badge', () => {
  it('says nothing when the customer pays on pickup or delivery (and for orders read before payments)', () => {
    expect(paymentBadge(order(null))).to.equal(null);
    expect(paymentBadge(order(undefined))).to.equal(null);
  });

  it('says Paid once the card is authorized, and still once it is captured', () => {
    expect(paymentBadge(order(card({ status: 'authorized', amount_captured: 0 })))).to.deep.equal({ text: 'Paid', tone: 'paid' });
    expect(paymentBadge(order(card({ status: 'captured' })))).to.deep.equal({ text: 'Paid', tone: 'paid' });
  });

  it('says how much went back, in the order\'s currency', () => {
    expect(paymentBadge(order(card({ status: 'partially_refunded', amount_refunded: 450 })))).to.deep.equal({ text: 'Part refunded 4.50', tone: 'refunded' });
    expect(paymentBadge(order(card({ status: 'refunded', amount_refunded: 2380 })))).to.deep.equal({ text: 'Refunded 23.80', tone: 'refunded' });
    expect(paymentBadge(order(card({ status: 'partially_refunded', currency: 'jpy', amount_refunded: 450 }), 'JPY'))!.text).to.equal('Part refunded 450');
  });

  it('falls back on the payment\'s own currency (lower case, as Stripe spells it) for an order read without one', () => {
    const { currency: _currency, ...bare } = order(card({ status: 'refunded', currency: 'kwd', amount_refunded: 1234 }));
    expect(paymentBadge(bare)!.text).to.equal('Refunded 1.234');
  });

  it('says Voided when the card was released, and Payment failed when it failed', () => {
    expect(paymentBadge(order(card({ status: 'voided', amount_captured: 0 })))).to.deep.equal({ text: 'Voided', tone: 'void' });
    expect(paymentBadge(order(card({ status: 'failed', amount_captured: 0 })))!.text).to.equal('Payment failed');
  });
});
