import { expect } from 'chai';
import { describe, it } from 'mocha';
import { apply, awaited, columns, EMPTY_BOARD, type Board, type BoardAction, type KitchenOrder, type Payment, type RefundChange, type StatusChange } from '../src/board.js';
import type { Status } from '../src/lifecycle.js';

const T0 = Date.parse('2026-11-25T12:00:00Z');

function order(id: string, overrides: Partial<KitchenOrder> = {}): KitchenOrder {
  return {
    order_id: id,
    status: 'placed',
    version: 1,
    created_at: new Date(T0).toISOString(),
    items: [{ product_id: 'prd_1', name: 'Pizza Margherita', quantity: 1, options: [{ option_id: 'opt_l', name: 'Large' }] }],
    ...overrides,
  };
}

function change(id: string, status: Status, version: number, reason?: string): StatusChange {
  return { order_id: id, status, version, at: new Date(T0 + version * 1000).toISOString(), ...(reason === undefined ? {} : { reason }) };
}

function paid(refunded = 0, overrides: Partial<Payment> = {}): Payment {
  const status = refunded === 0 ? 'captured' : refunded >= 2380 ? 'refunded' : 'partially_refunded';
  return { provider: 'stripe', status, amount: 2380, currency: 'usd', amount_captured: 2380, amount_refunded: refunded, payment_intent_id: 'pi_1', refunds: [], ...overrides };
}

function refund(id: string, version: number, refunded: number): RefundChange {
  const at = new Date(T0 + version * 1000).toISOString();
  return { order_id: id, version, at, refund: { refund_id: `rf_${version}`, amount: refunded, reason: 'Cold', status: 'pending', created_at: at }, payment: paid(refunded) };
}

const placed = (o: KitchenOrder): BoardAction => ({ kind: 'placed', order: o });
const refunded = (c: RefundChange): BoardAction => ({ kind: 'refunded', change: c });
const status = (c: StatusChange): BoardAction => ({ kind: 'status', change: c });

function run(...actions: BoardAction[]): Board {
  return actions.reduce(apply, EMPTY_BOARD);
}

/** The board as a cook sees it: ids per column. */
function shown(board: Board): Record<string, string[]> {
  return Object.fromEntries(Object.entries(columns(board)).map(([column, orders]) => [column, orders.map((o) => o.order_id)]));
}

describe('The kitchen board (events applied to plain data)', () => {
  it('puts a placed order in the New column, with its items and options', () => {
    const board = run(placed(order('ord_a')));
    expect(shown(board)).to.deep.equal({ placed: ['ord_a'], accepted: [], preparing: [], ready: [] });
    expect(board.orders['ord_a']!.items[0]!.options![0]!.name).to.equal('Large');
    expect(board.arrivals).to.equal(1);
  });

  it('moves a card along the columns as status events arrive, and takes it off once completed', () => {
    let board = run(placed(order('ord_a')), status(change('ord_a', 'accepted', 2)));
    expect(shown(board).accepted).to.deep.equal(['ord_a']);
    board = run(placed(order('ord_a')), status(change('ord_a', 'accepted', 2)), status(change('ord_a', 'preparing', 3)), status(change('ord_a', 'ready', 4)));
    expect(shown(board).ready).to.deep.equal(['ord_a']);
    board = apply(board, status(change('ord_a', 'completed', 5)));
    expect(shown(board)).to.deep.equal({ placed: [], accepted: [], preparing: [], ready: [] });
  });

  it('keeps the reason of a rejection off the board but never brings the order back', () => {
    const board = run(placed(order('ord_a')), status(change('ord_a', 'rejected', 2, 'Out of dough')), placed(order('ord_a')));
    expect(Object.keys(board.orders)).to.deep.equal([]);
    expect(board.closed['ord_a']).to.equal(2);
  });

  it('shows each order once however often its events are replayed (duplicates after a reconnection)', () => {
    const board = run(
      placed(order('ord_a')),
      status(change('ord_a', 'accepted', 2)),
      placed(order('ord_a')),
      status(change('ord_a', 'accepted', 2)),
      placed(order('ord_b', { created_at: new Date(T0 + 1000).toISOString() })),
      placed(order('ord_b', { created_at: new Date(T0 + 1000).toISOString() })),
    );
    expect(shown(board)).to.deep.equal({ placed: ['ord_b'], accepted: ['ord_a'], preparing: [], ready: [] });
    expect(board.arrivals, 'a replayed order.placed does not ring again').to.equal(2);
  });

  it('ignores an older event that arrives after a newer one (out of order)', () => {
    const board = run(placed(order('ord_a')), status(change('ord_a', 'preparing', 3)), status(change('ord_a', 'accepted', 2)));
    expect(shown(board).preparing).to.deep.equal(['ord_a']);
    expect(board.orders['ord_a']!.version).to.equal(3);
  });

  it('asks for the details of an open order it knows only from a status event, and shows it once they are read', () => {
    let board = run(status(change('ord_a', 'accepted', 2)));
    expect(awaited(board)).to.deep.equal(['ord_a']);
    expect(shown(board).accepted).to.deep.equal([]);
    // The read answers with an older version than the event: the board keeps the newer status.
    board = apply(board, { kind: 'loaded', order: order('ord_a') });
    expect(awaited(board)).to.deep.equal([]);
    expect(shown(board).accepted).to.deep.equal(['ord_a']);
    expect(board.orders['ord_a']!.version).to.equal(2);
  });

  it('needs no details for an order it first hears of as completed', () => {
    const board = run(status(change('ord_a', 'completed', 5)));
    expect(awaited(board)).to.deep.equal([]);
    expect(board.closed['ord_a']).to.equal(5);
  });

  it('takes an order read again after a 412 only when it is newer than what it shows', () => {
    const board = run(placed(order('ord_a')), status(change('ord_a', 'accepted', 2)));
    expect(apply(board, { kind: 'loaded', order: order('ord_a') })).to.equal(board);
    const moved = apply(board, { kind: 'loaded', order: order('ord_a', { status: 'preparing', version: 3 }) });
    expect(shown(moved).preparing).to.deep.equal(['ord_a']);
  });

  describe('refunds (order.refunded)', () => {
    const paidOrder = (o: Partial<KitchenOrder> = {}): KitchenOrder => order('ord_a', { payment: paid(), ...o });

    it('changes the card\'s payment and version, and leaves it where it is', () => {
      const board = run(placed(paidOrder()), status(change('ord_a', 'accepted', 2)), refunded(refund('ord_a', 3, 450)));
      expect(shown(board).accepted).to.deep.equal(['ord_a']);
      expect(board.orders['ord_a']!.payment).to.deep.equal(paid(450));
      expect(board.orders['ord_a']!.version, 'the next move sends If-Match "3"').to.equal(3);
      expect(board.orders['ord_a']!.items).to.have.length(1);
    });

    it('keeps a newer refund over an older one that arrives after it, and ignores a replay', () => {
      const board = run(placed(paidOrder()), refunded(refund('ord_a', 3, 900)), refunded(refund('ord_a', 2, 450)));
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(900);
      expect(apply(board, refunded(refund('ord_a', 3, 900))).orders).to.equal(board.orders);
    });

    it('keeps the refunded payment through later moves, and a read older than the refund does not undo it', () => {
      let board = run(placed(paidOrder()), refunded(refund('ord_a', 2, 450)), status(change('ord_a', 'accepted', 3)));
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(450);
      board = apply(board, { kind: 'snapshot', orders: [paidOrder()], since: 0 });
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(450);
      expect(board.orders['ord_a']!.status).to.equal('accepted');
    });

    it('does not bring back an order refunded after it left the board', () => {
      const board = run(placed(paidOrder()), status(change('ord_a', 'completed', 2)), refunded(refund('ord_a', 3, 2380)));
      expect(Object.keys(board.orders)).to.deep.equal([]);
      expect(awaited(board)).to.deep.equal([]);
      expect(board.closed['ord_a']).to.equal(3);
    });

    it('reads an order it first hears of by its refund, and shows the refund on the older details read', () => {
      let board = run(refunded(refund('ord_a', 4, 450)));
      expect(awaited(board)).to.deep.equal(['ord_a']);
      expect(shown(board).accepted).to.deep.equal([]);
      board = apply(board, { kind: 'loaded', order: paidOrder({ status: 'accepted', version: 3 }) });
      expect(awaited(board)).to.deep.equal([]);
      expect(shown(board).accepted).to.deep.equal(['ord_a']);
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(450);
      expect(board.orders['ord_a']!.version).to.equal(4);
    });

    it('keeps both a pending move and a pending refund until the details are read', () => {
      const board = run(status(change('ord_a', 'preparing', 3)), refunded(refund('ord_a', 4, 450)), { kind: 'loaded', order: paidOrder() });
      expect(shown(board).preparing).to.deep.equal(['ord_a']);
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(450);
      expect(board.orders['ord_a']!.version).to.equal(4);
    });

    it('keeps the newer of two pending refunds that arrive out of order', () => {
      const board = run(refunded(refund('ord_a', 4, 900)), refunded(refund('ord_a', 3, 450)), { kind: 'loaded', order: paidOrder({ version: 2 }) });
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(900);
      expect(board.orders['ord_a']!.version).to.equal(4);
    });

    it('takes the details read when they are newer than the pending refund', () => {
      const board = run(refunded(refund('ord_a', 2, 450)), { kind: 'loaded', order: paidOrder({ status: 'ready', version: 5, payment: paid(900) }) });
      expect(shown(board).ready).to.deep.equal(['ord_a']);
      expect(board.orders['ord_a']!.payment!.amount_refunded).to.equal(900);
    });

    it('puts an order first heard of by its refund among the closed once the read finds it completed', () => {
      const board = run(refunded(refund('ord_a', 6, 450)), { kind: 'loaded', order: paidOrder({ status: 'completed', version: 6, payment: paid(450) }) });
      expect(Object.keys(board.orders)).to.deep.equal([]);
      expect(awaited(board)).to.deep.equal([]);
      expect(board.closed['ord_a']).to.equal(6);
    });
  });

  describe('a re-read (at start, after a reset)', () => {
    it('fills the board from the list of open orders', () => {
      const board = apply(EMPTY_BOARD, { kind: 'snapshot', orders: [order('ord_a'), order('ord_b', { status: 'ready', version: 4 })], since: 0 });
      expect(shown(board)).to.deep.equal({ placed: ['ord_a'], accepted: [], preparing: [], ready: ['ord_b'] });
      expect(board.arrivals, 'orders already there when the page opens do not ring').to.equal(0);
    });

    it('drops the cards that left the board while the stream was away (a reset)', () => {
      const before = run(placed(order('ord_a')), placed(order('ord_b')));
      const board = apply(before, { kind: 'snapshot', orders: [order('ord_b')], since: before.seq });
      expect(shown(board).placed).to.deep.equal(['ord_b']);
    });

    it('keeps an order placed live while the list was being read, though the list lacks it', () => {
      const since = run(placed(order('ord_a'))).seq;
      const during = apply(run(placed(order('ord_a'))), placed(order('ord_c')));
      const board = apply(during, { kind: 'snapshot', orders: [order('ord_a')], since });
      expect(shown(board).placed!.sort()).to.deep.equal(['ord_a', 'ord_c']);
    });

    it('keeps a move that arrived live during the read over the older version the list shows', () => {
      const start = run(placed(order('ord_a')));
      const during = apply(start, status(change('ord_a', 'accepted', 2)));
      const board = apply(during, { kind: 'snapshot', orders: [order('ord_a')], since: start.seq });
      expect(shown(board).accepted).to.deep.equal(['ord_a']);
    });

    it('does not bring back an order completed live during the read, though the list still has it', () => {
      const start = run(placed(order('ord_a')));
      const during = apply(start, status(change('ord_a', 'completed', 2)));
      const board = apply(during, { kind: 'snapshot', orders: [order('ord_a')], since: start.seq });
      expect(Object.keys(board.orders)).to.deep.equal([]);
    });

    it('shows nothing twice when the list and the live events both carry an order', () => {
      const board = run(placed(order('ord_a')), { kind: 'snapshot', orders: [order('ord_a'), order('ord_a')], since: 0 }, placed(order('ord_a')));
      expect(shown(board).placed).to.deep.equal(['ord_a']);
    });
  });

  describe('order within a column', () => {
    it('puts the soonest promised time first, then placement, falling back to placement without fulfilment', () => {
      const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
      const board = run(
        placed(order('ord_later', { created_at: at(0), fulfilment: { type: 'delivery', time: at(90), promised_at: at(90) } })),
        placed(order('ord_asap_old', { created_at: at(1) })),
        placed(order('ord_soon', { created_at: at(5), fulfilment: { type: 'pickup', time: 'asap', promised_at: at(20) } })),
        placed(order('ord_asap_new', { created_at: at(2) })),
      );
      expect(shown(board).placed).to.deep.equal(['ord_asap_old', 'ord_asap_new', 'ord_soon', 'ord_later']);
    });
  });
});
