/**
 * What every OrderEventLog must do (the port's rules, docs/decisions.md "Live order updates"):
 * dense ids from 1, appends idempotent per order and version, replays after an id with `reset`
 * outside the window (the newest `keepAtLeast` events and those younger than `keepForMs`), the
 * head and an order's version read together, and live delivery (order-event-log-live.contract.ts).
 * Run against memory and Redis; the cross-instance tests only where instances share storage.
 */
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import type { LogPosition, OrderEventData } from '@storefront/domain/adapter-kit';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { anOrderAt } from '../builders.js';
import { describeOrderEventLogLiveContract } from './order-event-log-live.contract.js';
import {
  aPlacedEvent,
  eventsOfAReadyOrder,
  fixtures,
  idsFrom,
  keyOf,
  peerOf,
  placedEvents,
  readAllEvents,
  type OrderEventLogFactory,
  type OrderEventLogTraits,
} from './order-event-log-support.js';

export type { OrderEventLogFactory, OrderEventLogFixture, OrderEventLogTraits, OrderEventLogWindow } from './order-event-log-support.js';
/** For adapters' own tests of the log (faults): the contract's helpers. */
export { eventually, eventsOfAReadyOrder, keyOf, placedEvents, readAllEvents, EventRecorder } from './order-event-log-support.js';

const MINUTE = 60_000;

export function describeOrderEventLogContract(name: string, factory: OrderEventLogFactory, traits: OrderEventLogTraits): void {
  describe(`${name} (OrderEventLog contract)`, function () {
    this.timeout(20_000);
    const { open, closeAll } = fixtures(factory);
    afterEach(closeAll);

    describe('append', () => {
      it('gives ids 1, 2, 3, … in append order, starting from head 0', async () => {
        const { log } = await open();
        expect(await log.position()).to.deep.equal({ head: '0', orderVersion: 0 });
        const first = placedEvents(2);
        const second = eventsOfAReadyOrder();
        await log.append(first);
        await log.append(second);
        const events = await readAllEvents(log);
        expect(events.map((e) => e.id)).to.deep.equal(idsFrom(1, 6));
        expect(events.map(keyOf)).to.deep.equal([...first, ...second].map(keyOf));
        expect((await log.position()).head).to.equal('6');
      });

      it('adds nothing for an empty batch', async () => {
        const { log } = await open();
        await log.append([]);
        expect((await log.position()).head).to.equal('0');
      });

      it('skips an event whose version the log already holds for its order', async () => {
        const { log } = await open();
        const [placed, accepted] = eventsOfAReadyOrder();
        await log.append([placed!]);
        await log.append([placed!, accepted!]);
        await log.append([placed!]);
        expect((await readAllEvents(log)).map((e) => [e.id, e.version])).to.deep.equal([
          ['1', 1],
          ['2', 2],
        ]);
      });

      it('completes a batch re-appended after a partial publish, adding only what is missing', async () => {
        const { log } = await open();
        const a = eventsOfAReadyOrder();
        const b = eventsOfAReadyOrder();
        const c = aPlacedEvent();
        await log.append([a[0]!, a[1]!, b[0]!]);
        await log.append([...a, ...b, c]);
        const events = await readAllEvents(log);
        expect(events.map((e) => e.id)).to.deep.equal(idsFrom(1, 9));
        expect(events.map(keyOf)).to.deep.equal([a[0]!, a[1]!, b[0]!, a[2]!, a[3]!, b[1]!, b[2]!, b[3]!, c].map(keyOf));
      });

      it('appends concurrent copies of one batch exactly once', async () => {
        const { log } = await open();
        const batch = [...eventsOfAReadyOrder(), ...placedEvents(3)];
        await Promise.all([log.append(batch), log.append(batch), log.append(batch)]);
        expect((await readAllEvents(log)).map(keyOf)).to.deep.equal(batch.map(keyOf));
      });

      it('never goes back to an older version of an order, within a batch or across batches', async () => {
        const { log } = await open();
        const [v1, v2, v3, v4] = eventsOfAReadyOrder();
        await log.append([v1!, v3!, v2!]);
        await log.append([v2!, v4!]);
        expect((await readAllEvents(log)).map((e) => e.version)).to.deep.equal([1, 3, 4]);
        expect((await log.position(v1!.orderId)).orderVersion).to.equal(4);
      });

      if (traits.shared) {
        it('appends the same events from two instances exactly once', async () => {
          const fixture = await open();
          const peer = peerOf(fixture);
          const batches = Array.from({ length: 5 }, () => [...eventsOfAReadyOrder(), aPlacedEvent()]);
          await Promise.all(batches.flatMap((batch) => [fixture.log.append(batch), peer.append(batch)]));
          const events = await readAllEvents(peer);
          expect(events.map((e) => e.id)).to.deep.equal(idsFrom(1, 25));
          expect(new Set(events.map(keyOf)).size).to.equal(25);
          expect([...events.map(keyOf)].sort()).to.deep.equal(batches.flat().map(keyOf).sort());
        });
      }
    });

    describe('position', () => {
      it("gives the head and the order's newest version, 0 for an order it does not know", async () => {
        const { log } = await open();
        const events = eventsOfAReadyOrder();
        await log.append([aPlacedEvent(), ...events.slice(0, 3)]);
        expect(await log.position(events[0]!.orderId)).to.deep.equal({ head: '4', orderVersion: 3 });
        expect(await log.position('ord_unknown')).to.deep.equal({ head: '4', orderVersion: 0 });
        expect(await log.position()).to.deep.equal({ head: '4', orderVersion: 0 });
      });

      it('reads the head and the version together while appends go on', async () => {
        const fixture = await open();
        const { log } = fixture;
        // Appends from another instance where there is one, so that they truly race the reads.
        const appender = traits.shared ? peerOf(fixture) : log;
        const order = anOrderAt('ready');
        const others = placedEvents(4);
        const results = await Promise.all(
          [1, 2, 3, 4].flatMap((version) => [
            appender.append([others[version - 1]!, eventOfVersion(order, version)]),
            log.position(order.orderId),
            log.position(order.orderId),
          ]),
        );
        const positions = results.filter((result): result is LogPosition => result !== undefined);
        const idOf = new Map((await readAllEvents(log)).filter((e) => e.orderId === order.orderId).map((e) => [e.version, Number(e.id)]));
        for (const { head, orderVersion } of positions) {
          // The version's event is at or below the head; the next version's, if any, above it.
          if (orderVersion > 0) expect(idOf.get(orderVersion)).to.be.at.most(Number(head));
          const next = idOf.get(orderVersion + 1);
          if (next !== undefined) expect(next).to.be.greaterThan(Number(head));
        }
      });
    });

    describe('readAfter', () => {
      it('reads from 0, from the middle, and from the head (nothing, no more)', async () => {
        const { log } = await open();
        const appended = placedEvents(5);
        await log.append(appended);
        const all = await log.readAfter('0', 100);
        expect(all).to.include({ kind: 'events', more: false });
        expect(all.kind === 'events' && all.events.map(keyOf)).to.deep.equal(appended.map(keyOf));
        const middle = await log.readAfter('2', 100);
        expect(middle.kind === 'events' && middle.events.map((e) => e.id)).to.deep.equal(['3', '4', '5']);
        expect(await log.readAfter('5', 100)).to.deep.equal({ kind: 'events', events: [], more: false });
      });

      it('reads an empty log from 0', async () => {
        const { log } = await open();
        expect(await log.readAfter('0', 10)).to.deep.equal({ kind: 'events', events: [], more: false });
      });

      it('pages by the limit, saying when there is more', async () => {
        const { log } = await open();
        await log.append(placedEvents(5));
        const pages: [string[], boolean][] = [];
        for (const after of ['0', '2', '4']) {
          const page = await log.readAfter(after, 2);
          if (page.kind === 'reset') expect.fail(`reset after ${after}`);
          pages.push([page.events.map((e) => e.id), page.more]);
        }
        expect(pages).to.deep.equal([
          [['1', '2'], true],
          [['3', '4'], true],
          [['5'], false],
        ]);
        const exact = await log.readAfter('3', 2);
        expect(exact.kind === 'events' && exact.more).to.equal(false);
      });

      it('answers reset to what is not an id', async () => {
        const { log } = await open();
        await log.append(placedEvents(3));
        for (const garbage of ['abc', '-1', '1.5', '', '01', ' 1', '1e2', '0x1', '99999999999999999999']) {
          expect(await log.readAfter(garbage, 10), JSON.stringify(garbage)).to.deep.equal({ kind: 'reset' });
        }
      });

      it('answers reset to an id beyond the head', async () => {
        const { log } = await open();
        expect(await log.readAfter('1', 10)).to.deep.equal({ kind: 'reset' });
        await log.append(placedEvents(3));
        expect(await log.readAfter('4', 10)).to.deep.equal({ kind: 'reset' });
        expect(await log.readAfter('999999999999999', 10)).to.deep.equal({ kind: 'reset' });
      });

      it('keeps the newest `keepAtLeast` events however old, and answers reset before them', async () => {
        const { log, clock } = await open({ keepAtLeast: 3, keepForMs: MINUTE });
        await log.append(placedEvents(3));
        clock.advance(2 * MINUTE);
        await log.append(placedEvents(2));
        expect((await readAllEvents(log, '2')).map((e) => e.id)).to.deep.equal(['3', '4', '5']);
        expect(await log.readAfter('1', 10)).to.deep.equal({ kind: 'reset' });
        expect(await log.readAfter('0', 10)).to.deep.equal({ kind: 'reset' });
      });

      it('keeps every event younger than `keepForMs` however many', async () => {
        const { log, clock } = await open({ keepAtLeast: 2, keepForMs: MINUTE });
        await log.append(placedEvents(4));
        clock.advance(30_000);
        await log.append(placedEvents(2));
        expect((await readAllEvents(log)).map((e) => e.id)).to.deep.equal(idsFrom(1, 6));
        clock.advance(30_000);
        await log.append(placedEvents(1));
        // Events 1-4 are a minute old now; 5 is half a minute old, so kept though not among the newest 2.
        expect((await readAllEvents(log, '4')).map((e) => e.id)).to.deep.equal(['5', '6', '7']);
        expect(await log.readAfter('3', 10)).to.deep.equal({ kind: 'reset' });
      });

      it('trims to `keepAtLeast` when `keepForMs` is 0', async () => {
        const { log } = await open({ keepAtLeast: 1, keepForMs: 0 });
        await log.append(placedEvents(4));
        expect((await readAllEvents(log, '3')).map((e) => e.id)).to.deep.equal(['4']);
        expect(await log.readAfter('2', 10)).to.deep.equal({ kind: 'reset' });
        expect(await log.readAfter('4', 10)).to.deep.equal({ kind: 'events', events: [], more: false });
      });
    });

    describe('events', () => {
      it('round-trip intact: the placed order with its dates, statuses, and the reason', async () => {
        const { log } = await open();
        const rejected = anOrderAt('rejected', { reason: 'Out of dough' });
        const appended: OrderEventData[] = [eventOfVersion(rejected, 1), eventOfVersion(rejected, 2), ...eventsOfAReadyOrder()];
        await log.append(appended);
        const events = await readAllEvents(log);
        expect(events).to.deep.equal(appended.map((event, i) => ({ ...event, id: String(i + 1) })));
        expect(events[0]!.order!.createdAt).to.be.instanceOf(Date);
        expect(events[1]).to.include({ reason: 'Out of dough', status: 'rejected' });
      });

      it("lose the erased customer's delivery addresses, and nothing else", async () => {
        const { log } = await open();
        const address = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring twice' };
        const fulfilment = { type: 'delivery' as const, time: 'asap', promisedAt: new Date(), address, zone: 'Mitte' };
        const erased = anOrderAt('accepted', { fulfilment });
        const kept = anOrderAt('placed', { fulfilment });
        const pickup = anOrderAt('placed', { customerId: erased.customerId });
        const appended = [eventOfVersion(erased, 1), eventOfVersion(kept, 1), eventOfVersion(erased, 2), eventOfVersion(pickup, 1)];
        await log.append(appended);
        await log.eraseDeliveryAddresses(erased.customerId);
        await log.eraseDeliveryAddresses(erased.customerId);
        const { address: _gone, ...withoutAddress } = fulfilment;
        const expected = appended.map((event, i) => ({ ...event, id: String(i + 1) }));
        expected[0] = { ...expected[0]!, order: { ...expected[0]!.order!, fulfilment: withoutAddress } };
        expect(await readAllEvents(log)).to.deep.equal(expected);
        expect(await log.position()).to.deep.equal({ head: '4', orderVersion: 0 });
        await log.append([eventOfVersion(kept, 1), eventOfVersion(anOrderAt('placed'), 1)]);
        expect((await readAllEvents(log)).map((event) => event.id)).to.deep.equal(['1', '2', '3', '4', '5']);
      });

      if (traits.shared) {
        it('read by another instance equal what was appended', async () => {
          const fixture = await open();
          const appended = [eventOfVersion(anOrderAt('cancelled', { reason: 'Closing early' }), 1), ...eventsOfAReadyOrder()];
          await fixture.log.append(appended);
          expect(await readAllEvents(peerOf(fixture))).to.deep.equal(appended.map((event, i) => ({ ...event, id: String(i + 1) })));
        });
      }
    });

    describeOrderEventLogLiveContract(open, traits);
  });
}
