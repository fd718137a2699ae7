import { expect } from 'chai';
import { describe, it } from 'mocha';
import { boardAction } from '../src/events.js';

describe('The staff stream\'s events as board actions', () => {
  it('reads order.placed, order.status and order.refunded', () => {
    expect(boardAction('order.placed', '{"order_id":"ord_a","version":1}')).to.deep.equal({ kind: 'placed', order: { order_id: 'ord_a', version: 1 } });
    expect(boardAction('order.status', '{"order_id":"ord_a","status":"accepted","version":2}')).to.deep.equal({
      kind: 'status',
      change: { order_id: 'ord_a', status: 'accepted', version: 2 },
    });
    const refunded = {
      order_id: 'ord_a',
      version: 3,
      at: '2026-11-25T12:03:00.000Z',
      refund: { refund_id: 'rf_1', amount: 450, reason: 'Cold', status: 'pending', created_at: '2026-11-25T12:03:00.000Z' },
      payment: { provider: 'stripe', status: 'partially_refunded', amount: 2380, currency: 'usd', amount_captured: 2380, amount_refunded: 450, payment_intent_id: 'pi_1', refunds: [] },
    };
    expect(boardAction('order.refunded', JSON.stringify(refunded))).to.deep.equal({ kind: 'refunded', change: refunded });
  });

  it("reads a refund's settlement (order.payment) as a change of the payment", () => {
    const settled = { order_id: 'ord_a', version: 5, at: '2026-11-25T12:04:00.000Z', payment: { provider: 'stripe', status: 'refunded' } };
    expect(boardAction('order.payment', JSON.stringify(settled))).to.deep.equal({ kind: 'refunded', change: settled });
  });

  it('skips events it does not know and data it cannot read', () => {
    expect(boardAction('order.other', '{"order_id":"ord_a"}')).to.equal(null);
    expect(boardAction('order.refunded', '{not json')).to.equal(null);
  });
});
