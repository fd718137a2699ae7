/**
 * The relay's scheduling, with hand-made ports: a change stored at any moment of a drain is
 * published without waiting for the sweep, a failing log is retried, not spun on, and a new order
 * handed over with its notice is published as written, without an outbox read.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderEventLog, OrderOutbox } from '../src/index.js';
import type { OrderEventData, PublishedMark, UnpublishedOrder } from '../src/adapter-kit.js';
import { placedState } from '../src/orders/order-lifecycle.js';
import { OrderEventRelay } from '../src/orders/order-event-relay.js';
import { setTimer } from '../src/shared/timers.js';

/**
 * An outbox and log of counted calls that keep what was appended and marked: `leave` an order for
 * the next read to answer; while `kept.failAppends` is above 0, an append rejects.
 */
function anOutbox() {
  const calls = { list: 0, append: 0 };
  const kept = { appended: [] as OrderEventData[], marked: [] as PublishedMark[], failAppends: 0 };
  let due: UnpublishedOrder[] = [];
  const reads: Promise<readonly UnpublishedOrder[]>[] = [];
  const orders = {
    listUnpublished: () => {
      calls.list += 1;
      const answer = Promise.resolve(due);
      due = [];
      reads.push(answer);
      return answer;
    },
    markPublished: (orderId: string, version: number) => {
      kept.marked.push({ orderId, version });
      return Promise.resolve();
    },
    markAllPublished: (marks: readonly PublishedMark[]) => {
      kept.marked.push(...marks);
      return Promise.resolve();
    },
  } satisfies OrderOutbox;
  const unused = () => Promise.reject(new Error('not used by the relay'));
  const log: OrderEventLog = {
    append: (events) => {
      calls.append += 1;
      if (kept.failAppends > 0) {
        kept.failAppends -= 1;
        return Promise.reject(new Error('log down'));
      }
      kept.appended.push(...events);
      return Promise.resolve();
    },
    position: unused,
    readAfter: unused,
    subscribe: () => () => undefined,
    eraseDeliveryAddresses: unused,
  };
  return { orders, log, calls, reads, kept, leave: (order: Order) => due.push({ order, publishedVersion: 0 }) };
}

/** A placed order, as a store has just written it (version 1, nothing published). */
function aPlacedOrder(orderId: string): Order {
  const at = new Date('2026-11-29T09:00:00Z');
  return {
    orderId,
    customerId: 'cus_relay',
    items: [{ productId: 'prd_relay', name: 'Dish', quantity: 1, unitPrice: 900, lineTotal: 900, options: [], taxRate: 0 }],
    subtotal: 900,
    deliveryFee: 0,
    tip: 0,
    amount: 900,
    pricesIncludeTax: false,
    taxes: [],
    taxTotal: 0,
    currency: 'USD',
    ...placedState(at),
    fulfilment: { type: 'pickup', time: 'asap', promisedAt: at },
    createdAt: at,
  };
}

const nextTurns = () => new Promise<void>((resolve) => setTimer(resolve, 5));

describe('OrderEventRelay', () => {
  it('drains again when notified just after a drain read an empty outbox, before it ended', async () => {
    const { orders, log, calls, reads } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    const first = relay.drain();
    // Runs right after the relay's own continuation of this read: its drain is over but not cleared.
    const notified = reads[0]!.then(() => relay.notify());
    await first;
    await notified;
    await new Promise<void>((resolve) => setTimer(resolve, 5));
    expect(calls.list).to.equal(2);
  });

  it('waits on stop for the drain asked for while one ran, not only for the running one', async () => {
    // Reads that take a timer tick: a stop that returned early would leave the second one unread.
    const reads = { started: 0, done: 0 };
    const orders = {
      listUnpublished: () => {
        reads.started += 1;
        return new Promise<UnpublishedOrder[]>((resolve) => setTimer(() => ((reads.done += 1), resolve([])), 1));
      },
      markPublished: () => Promise.resolve(),
    } satisfies OrderOutbox;
    const relay = new OrderEventRelay(orders, {} as OrderEventLog);
    void relay.drain();
    void relay.drain();
    await relay.stop();
    expect(reads).to.deep.equal({ started: 2, done: 2 });
  });

  it('publishes the changes notified within one turn with one outbox read, at the next turn', async () => {
    const { orders, log, calls } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    for (let change = 0; change < 16; change++) relay.notify();
    expect(calls.list).to.equal(0);
    await new Promise<void>((resolve) => setTimer(resolve, 5));
    expect(calls.list).to.equal(1);
    relay.notify();
    await new Promise<void>((resolve) => setTimer(resolve, 5));
    expect(calls.list).to.equal(2);
  });

  it('publishes on stop what was notified and not yet published', async () => {
    const { orders, log, calls } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    relay.notify();
    await relay.stop();
    expect(calls.list).to.equal(1);
    // Nothing is left to fire after the stop.
    await new Promise<void>((resolve) => setTimer(resolve, 5));
    expect(calls.list).to.equal(1);
  });

  it('answers a drain asked for while one runs only after a drain that started later', async () => {
    const { orders, log, calls } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    void relay.drain();
    await relay.drain();
    expect(calls.list).to.equal(2);
  });

  it('publishes new orders handed over with their notice as written: no outbox read', async () => {
    const { orders, log, calls, kept } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    relay.notify(aPlacedOrder('ord_a'));
    relay.notify(aPlacedOrder('ord_b'));
    await nextTurns();
    expect(calls.list).to.equal(0);
    expect(kept.appended.map((event) => [event.orderId, event.version, event.type])).to.deep.equal([
      ['ord_a', 1, 'order.placed'],
      ['ord_b', 1, 'order.placed'],
    ]);
    expect(kept.marked).to.deep.equal([
      { orderId: 'ord_a', version: 1 },
      { orderId: 'ord_b', version: 1 },
    ]);
  });

  it('reads the outbox in the same turn for a change notified without its order', async () => {
    const { orders, log, calls, kept, leave } = anOutbox();
    const relay = new OrderEventRelay(orders, log);
    leave(aPlacedOrder('ord_moved'));
    relay.notify(aPlacedOrder('ord_new'));
    relay.notify();
    await nextTurns();
    expect(calls.list).to.equal(1);
    expect(kept.appended.map((event) => event.orderId)).to.deep.equal(['ord_new', 'ord_moved']);
  });

  it('leaves a handed-over order it could not publish to the sweep, which finds it in the outbox', async () => {
    const { orders, log, calls, kept, leave } = anOutbox();
    const relay = new OrderEventRelay(orders, log, { sweepMs: 10 });
    const order = aPlacedOrder('ord_failed');
    kept.failAppends = 1;
    relay.notify(order);
    await nextTurns();
    expect(kept.appended).to.deep.equal([]);
    expect(kept.marked).to.deep.equal([]);
    // The store still holds it unpublished: the sweep reads it back and publishes it.
    leave(order);
    relay.start();
    await new Promise<void>((resolve) => setTimer(resolve, 40));
    await relay.stop();
    expect(kept.appended.map((event) => [event.orderId, event.version])).to.deep.equal([['ord_failed', 1]]);
    expect(kept.marked).to.deep.equal([{ orderId: 'ord_failed', version: 1 }]);
  });
});
