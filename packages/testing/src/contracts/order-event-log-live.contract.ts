/**
 * The OrderEventLog contract, live delivery: every event appended after `subscribe`, in id order,
 * each once per listener (earlier ones may come too: readers drop what they have), until the
 * listener unsubscribes; through shared storage, another instance's appends too.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { sleep } from '../assertions.js';
import { anOrderAt } from '../builders.js';
import {
  eventsOfAReadyOrder,
  eventually,
  expectIncreasing,
  idsFrom,
  peerOf,
  placedEvents,
  EventRecorder,
  type OrderEventLogFixture,
  type OrderEventLogTraits,
  type OrderEventLogWindow,
} from './order-event-log-support.js';

/** Long enough for a stray duplicate or late event to show up after the expected ones did. */
const SETTLE_MS = 150;

export function describeOrderEventLogLiveContract(
  open: (window?: OrderEventLogWindow) => Promise<OrderEventLogFixture>,
  traits: OrderEventLogTraits,
): void {
  describe('subscribe', () => {
    it('delivers every event appended after subscribing, in id order, each once', async () => {
      const { log } = await open();
      await log.append(placedEvents(2));
      const recorder = new EventRecorder();
      log.subscribe(recorder);
      const order = eventsOfAReadyOrder();
      await log.append(order.slice(0, 2));
      await Promise.all([log.append(order), log.append(placedEvents(2))]);
      await log.append(order);
      await eventually(() => expect(recorder.idsAfter('2')).to.deep.equal(idsFrom(3, 6)));
      await sleep(SETTLE_MS);
      expect(recorder.idsAfter('2')).to.deep.equal(idsFrom(3, 6));
      expectIncreasing(recorder.ids);
      expect(recorder.gaps).to.equal(0);
    });

    it('delivers the events intact: dates, the placed order, the reason', async () => {
      const { log } = await open();
      const recorder = new EventRecorder();
      log.subscribe(recorder);
      const rejected = anOrderAt('rejected', { reason: 'Out of dough' });
      const appended = [eventOfVersion(rejected, 1), eventOfVersion(rejected, 2)];
      await log.append(appended);
      await eventually(() => expect(recorder.events).to.have.length(2));
      expect(recorder.events).to.deep.equal(appended.map((event, i) => ({ ...event, id: String(i + 1) })));
      expect(recorder.events[0]!.order!.statusHistory[0]!.at).to.be.instanceOf(Date);
    });

    it('gives every listener the same events in the same order', async () => {
      const { log } = await open();
      const [a, b] = [new EventRecorder(), new EventRecorder()];
      log.subscribe(a);
      log.subscribe(b);
      await Promise.all(Array.from({ length: 5 }, () => log.append(placedEvents(3))));
      await eventually(() => expect(b.ids).to.deep.equal(idsFrom(1, 15)));
      await sleep(SETTLE_MS);
      expect(a.ids).to.deep.equal(idsFrom(1, 15));
      expect(b.ids).to.deep.equal(idsFrom(1, 15));
    });

    it('stops delivering to a listener that unsubscribed, and goes on for the others', async () => {
      const { log } = await open();
      const [gone, staying] = [new EventRecorder(), new EventRecorder()];
      const unsubscribe = log.subscribe(gone);
      log.subscribe(staying);
      await log.append(placedEvents(1));
      await eventually(() => expect(gone.ids).to.deep.equal(['1']));
      unsubscribe();
      await log.append(placedEvents(2));
      await eventually(() => expect(staying.ids).to.deep.equal(['1', '2', '3']));
      await sleep(SETTLE_MS);
      expect(gone.ids).to.deep.equal(['1']);
    });

    it('goes on delivering to the others when a listener throws, and the append succeeds', async () => {
      const { log } = await open();
      const recorder = new EventRecorder();
      log.subscribe({
        event: () => {
          throw new Error('a listener that fails');
        },
        gap: () => undefined,
      });
      log.subscribe(recorder);
      await log.append(placedEvents(2));
      await log.append(placedEvents(1));
      await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2', '3']));
    });

    if (traits.shared) {
      it('delivers what another instance appends, to listeners of both, in the same order', async () => {
        const fixture = await open();
        const peer = peerOf(fixture);
        const [here, there] = [new EventRecorder(), new EventRecorder()];
        fixture.log.subscribe(here);
        peer.subscribe(there);
        // "After subscribing" across instances: once each instance has answered a call made after it subscribed.
        await Promise.all([fixture.log.position(), peer.position()]);
        await Promise.all([peer.append(placedEvents(3)), fixture.log.append(placedEvents(3)), peer.append(eventsOfAReadyOrder())]);
        await eventually(() => expect(here.ids).to.deep.equal(idsFrom(1, 10)));
        await eventually(() => expect(there.ids).to.deep.equal(idsFrom(1, 10)));
        expect(here.events).to.deep.equal(there.events);
        await sleep(SETTLE_MS);
        expect(here.ids).to.deep.equal(idsFrom(1, 10));
        expect([here.gaps, there.gaps]).to.deep.equal([0, 0]);
      });
    }
  });
}
