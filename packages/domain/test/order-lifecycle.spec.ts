/**
 * The order lifecycle, checked against a table written out here by hand (not derived from
 * ORDER_MOVES): every status × status × mover, legal or not, and which legal moves need a reason.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, isDomainError } from '../src/shared/errors.js';
import type { Order, OrderStatus } from '../src/orders/order.js';
import { legacyFulfilment } from '../src/fulfilment/fulfilment.js';
import type { Mover } from '../src/orders/order-lifecycle.js';
import { applyOrderMove, ORDER_STATUSES, parseReason, pathFromPlaced, placedState, planMove } from '../src/orders/order-lifecycle.js';
import { Issues } from '../src/shared/validation.js';

/** `from>to` → what each mover may do: 'free' (no reason), 'reason' (needs one); absent = illegal. */
const LEGAL: Readonly<Record<string, Partial<Record<Mover, 'free' | 'reason'>>>> = {
  'placed>accepted': { staff: 'free' },
  'accepted>preparing': { staff: 'free' },
  'preparing>ready': { staff: 'free' },
  'ready>completed': { staff: 'free' },
  'placed>rejected': { staff: 'reason' },
  'placed>cancelled': { owner: 'free', staff: 'reason', payment: 'reason' },
  'accepted>cancelled': { staff: 'reason' },
  'preparing>cancelled': { staff: 'reason' },
  'awaiting_payment>placed': { payment: 'free' },
  'awaiting_payment>cancelled': { owner: 'free', payment: 'reason' },
};

const MOVERS: readonly Mover[] = ['owner', 'staff', 'payment'];
const CREATED = new Date(Date.UTC(2025, 0, 15, 12, 0, 0));
const NOW = new Date(CREATED.getTime() + 5 * 60_000);

/** An order in `status`, as stored (its history does not matter to planMove). */
function orderIn(status: OrderStatus, version = 3): Order {
  return {
    orderId: 'ord_test',
    customerId: 'cus_test',
    items: [{ productId: 'prd_soup', name: 'Soup', quantity: 1, unitPrice: 450, lineTotal: 450, options: [], taxRate: 0 }],
    subtotal: 450,
    deliveryFee: 0,
    tip: 0,
    amount: 450,
    pricesIncludeTax: false,
    taxes: [],
    taxTotal: 0,
    currency: 'USD',
    createdAt: CREATED,
    fulfilment: legacyFulfilment(CREATED),
    ...placedState(CREATED),
    status,
    version,
  };
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a DomainError, but nothing was thrown');
}

describe('Order lifecycle', () => {
  it('has every status in the table', () => {
    expect([...ORDER_STATUSES].sort()).to.deep.equal(['accepted', 'awaiting_payment', 'cancelled', 'completed', 'placed', 'preparing', 'ready', 'rejected']);
  });

  describe('planMove, for every status × status × mover', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        for (const by of MOVERS) {
          const rule = LEGAL[`${from}>${to}`]?.[by];
          if (rule === undefined) {
            it(`refuses ${by} moving ${from} → ${to} with invalid_transition naming the status`, () => {
              const error = thrown(() => planMove(orderIn(from), { to, by, reason: 'Some reason' }, NOW));
              expect(isDomainError(error, 'invalid_transition'), String(error)).to.equal(true);
              expect((error as DomainError).message).to.contain(`is ${from}`);
            });
          } else {
            const reason = rule === 'reason' ? 'Out of dough' : undefined;
            it(`lets ${by} move ${from} → ${to}${reason === undefined ? '' : ' with a reason'}`, () => {
              const move = planMove(orderIn(from, 3), { to, by, reason }, NOW);
              const expected = { orderId: 'ord_test', fromVersion: 3, status: to, at: NOW };
              expect(move).to.deep.equal(reason === undefined ? expected : { ...expected, reason });
            });
          }
        }
      }
    }
  });

  describe('reasons', () => {
    for (const [key, movers] of Object.entries(LEGAL)) {
      const [from, to] = key.split('>') as [OrderStatus, OrderStatus];
      for (const [by, rule] of Object.entries(movers) as [Mover, 'free' | 'reason'][]) {
        if (rule === 'reason') {
          it(`refuses ${by} moving ${from} → ${to} without a reason with validation_failed`, () => {
            const error = thrown(() => planMove(orderIn(from), { to, by }, NOW));
            expect(isDomainError(error, 'validation_failed'), String(error)).to.equal(true);
            expect((error as DomainError).details).to.deep.equal([
              { path: 'reason', message: 'is required: 1 to 200 characters' },
            ]);
          });
        } else if (by === 'staff') {
          it(`refuses a reason on staff moving ${from} → ${to} with validation_failed`, () => {
            const error = thrown(() => planMove(orderIn(from), { to, by, reason: 'Because' }, NOW));
            expect(isDomainError(error, 'validation_failed'), String(error)).to.equal(true);
            expect((error as DomainError).details![0]!.path).to.equal('reason');
          });
        }
      }
    }

    it("ignores a reason on the owner's own cancellation (the owner gives none)", () => {
      const move = planMove(orderIn('placed'), { to: 'cancelled', by: 'owner', reason: 'Changed my mind' }, NOW);
      expect(move).to.not.have.property('reason');
    });

    it('takes a reason of 1 to 200 characters, trimmed, and refuses an empty, blank, longer or non-string one', () => {
      const parse = (value: unknown): { reason: string | undefined; issues: number } => {
        const issues = new Issues();
        return { reason: parseReason(value, issues), issues: issues.list.length };
      };
      expect(parse(undefined)).to.deep.equal({ reason: undefined, issues: 0 });
      expect(parse('x')).to.deep.equal({ reason: 'x', issues: 0 });
      expect(parse('  Out of dough  ')).to.deep.equal({ reason: 'Out of dough', issues: 0 });
      expect(parse('r'.repeat(200))).to.deep.equal({ reason: 'r'.repeat(200), issues: 0 });
      for (const bad of ['', '   ', 'r'.repeat(201), 42, null, ['reason']]) {
        expect(parse(bad), JSON.stringify(bad)).to.deep.equal({ reason: undefined, issues: 1 });
      }
    });
  });

  describe('applyOrderMove', () => {
    it('moves the status, bumps the version, stamps updated_at and appends to the history', () => {
      const placed = orderIn('placed', 1);
      const move = planMove(placed, { to: 'accepted', by: 'staff' }, NOW);
      const accepted = applyOrderMove(placed, move);
      expect(accepted).to.deep.equal({
        ...placed,
        status: 'accepted',
        version: 2,
        updatedAt: NOW,
        statusHistory: [{ status: 'placed', at: CREATED }, { status: 'accepted', at: NOW }],
      });
      expect(placed.statusHistory, 'the order it was given is left as it was').to.have.length(1);
    });

    it('keeps the reason of the move, and an earlier reason through a later move without one', () => {
      const accepted = applyOrderMove(orderIn('placed', 1), planMove(orderIn('placed', 1), { to: 'accepted', by: 'staff' }, NOW));
      const later = new Date(NOW.getTime() + 60_000);
      const cancelled = applyOrderMove(accepted, planMove(accepted, { to: 'cancelled', by: 'staff', reason: 'Oven broke' }, later));
      expect(cancelled).to.deep.include({ status: 'cancelled', version: 3, reason: 'Oven broke', updatedAt: later });
      expect(cancelled.statusHistory.map((change) => change.status)).to.deep.equal(['placed', 'accepted', 'cancelled']);
      const withReason: Order = { ...orderIn('ready', 4), reason: 'Kept' };
      const completed = applyOrderMove(withReason, planMove(withReason, { to: 'completed', by: 'staff' }, later));
      expect(completed.reason).to.equal('Kept');
    });

    it('gives a placed order version 1 and a history that starts with placed at its creation', () => {
      expect(placedState(CREATED)).to.deep.equal({
        status: 'placed', version: 1, updatedAt: CREATED, statusHistory: [{ status: 'placed', at: CREATED }],
      });
    });
  });

  describe('pathFromPlaced', () => {
    it('gives the shortest way from placed to every status, as the table allows', () => {
      const reachable = ORDER_STATUSES.filter((status) => status !== 'awaiting_payment');
      expect(Object.fromEntries(reachable.map((status) => [status, pathFromPlaced(status)]))).to.deep.equal({
        placed: [],
        accepted: ['accepted'],
        preparing: ['accepted', 'preparing'],
        ready: ['accepted', 'preparing', 'ready'],
        completed: ['accepted', 'preparing', 'ready', 'completed'],
        rejected: ['rejected'],
        cancelled: ['cancelled'],
      });
    });

    it('refuses a status that comes before placed', () => {
      expect(() => pathFromPlaced('awaiting_payment')).to.throw(RangeError);
    });
  });
});
