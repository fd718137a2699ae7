/** What is the memory log's own: bounded records, and the id order of appends made while delivering. */
import { eventOfVersion, withoutDeliveryAddress } from '@storefront/domain/adapter-kit';
import { anOrder, EventRecorder, FakeClock, placedEvents, readAllEvents } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { createMemoryAdapters, InMemoryOrderEventLog } from '../src/index.js';
import { aRefundedDeliveryOrder } from './paid-orders.js';

const DAY_MS = 24 * 3600_000;

describe('InMemoryOrderEventLog', () => {
  it("forgets an order's record once its events left the window and it was written 24 h ago", async () => {
    const clock = new FakeClock();
    const log = new InMemoryOrderEventLog({ clock, keepAtLeast: 1, keepForMs: 0 });
    const placed = eventOfVersion(anOrder(), 1);
    await log.append([placed, ...placedEvents(1)]);
    clock.advance(DAY_MS - 1);
    await log.append(placedEvents(1));
    expect((await log.position(placed.orderId)).orderVersion).to.equal(1);
    clock.advance(1);
    await log.append(placedEvents(1));
    expect((await log.position(placed.orderId)).orderVersion).to.equal(0);
  });

  it('keeps the record of an order whose event is still in the window, however old', async () => {
    const clock = new FakeClock();
    const log = new InMemoryOrderEventLog({ clock, keepAtLeast: 3 });
    const placed = eventOfVersion(anOrder(), 1);
    await log.append([placed]);
    clock.advance(2 * DAY_MS);
    await log.append(placedEvents(2));
    expect((await log.position(placed.orderId)).orderVersion).to.equal(1);
    await log.append([placed]);
    expect((await log.position()).head).to.equal('3');
  });

  it('delivers an append made by a listener after the events being delivered, in id order', async () => {
    const log = new InMemoryOrderEventLog();
    const later = placedEvents(1);
    log.subscribe({
      event: (event) => {
        if (event.id === '1') void log.append(later);
      },
      gap: () => undefined,
    });
    const recorder = new EventRecorder();
    log.subscribe(recorder);
    await log.append(placedEvents(3));
    expect(recorder.ids).to.deep.equal(['1', '2', '3', '4']);
  });

  it('stays exact over many trims', async () => {
    const log = new InMemoryOrderEventLog({ keepAtLeast: 10, keepForMs: 0 });
    for (let i = 0; i < 3000; i++) await log.append(placedEvents(1));
    expect((await readAllEvents(log, '2990')).map((e) => e.id)).to.deep.equal(Array.from({ length: 10 }, (_, i) => String(2991 + i)));
    expect(await log.readAfter('2989', 10)).to.deep.equal({ kind: 'reset' });
  });

  it('is one of the memory adapters, driven by their clock', async () => {
    const clock = new FakeClock();
    const { events } = createMemoryAdapters({ clock });
    await events.append(placedEvents(2));
    expect(await events.position()).to.deep.equal({ head: '2', orderVersion: 0 });
    // The window is the defaults' (an hour, and the newest 10,000 however old), timed by that clock.
    await events.append(placedEvents(9_998));
    clock.advance(3600_000);
    await events.append(placedEvents(1));
    expect(await events.readAfter('0', 1)).to.deep.equal({ kind: 'reset' });
    expect(await events.readAfter('1', 1)).to.deep.include({ kind: 'events', more: true });
  });

  it('erases the delivery address from the order each order.refunded carries, as from order.placed', async () => {
    const log = new InMemoryOrderEventLog();
    const order = aRefundedDeliveryOrder();
    const appended = [1, 2, 3, 4].map((version) => eventOfVersion(order, version));
    expect(appended.map((event) => event.type)).to.deep.equal(['order.status', 'order.placed', 'order.refunded', 'order.payment']);
    await log.append(appended);
    await log.eraseDeliveryAddresses(order.customerId);
    const erased = [1, 2, 3, 4].map((version) => eventOfVersion(withoutDeliveryAddress(order), version));
    expect(await readAllEvents(log)).to.deep.equal(erased.map((event, i) => ({ ...event, id: String(i + 1) })));
    expect((await readAllEvents(log))[2]!.order!.fulfilment).not.to.have.property('address');
  });
});
