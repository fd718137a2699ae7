/**
 * The relay's scheduling, with hand-made ports: a change stored at any moment of a drain is
 * published without waiting for the sweep, and a failing log is retried, not spun on.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { OrderEventLog, OrderOutbox } from '../src/index.js';
import type { UnpublishedOrder } from '../src/adapter-kit.js';
import { OrderEventRelay } from '../src/orders/order-event-relay.js';
import { setTimer } from '../src/shared/timers.js';

/** An outbox of counted calls; `due` is what the next read answers. */
function anOutbox() {
  const calls = { list: 0, append: 0 };
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
    markPublished: () => Promise.resolve(),
  } satisfies OrderOutbox;
  const unused = () => Promise.reject(new Error('not used by the relay'));
  const log: OrderEventLog = {
    append: () => ((calls.append += 1), Promise.resolve()),
    position: unused,
    readAfter: unused,
    subscribe: () => () => undefined,
    eraseDeliveryAddresses: unused,
  };
  return { orders, log, calls, reads };
}

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
});
