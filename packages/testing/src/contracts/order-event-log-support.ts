/** What the OrderEventLog contract runs against, and the small helpers its tests share. */
import type { OrderEvent, OrderEventLog } from '@storefront/domain';
import type { OrderEventData, OrderEventListener } from '@storefront/domain/adapter-kit';
import { eventOfVersion, unpublishedEvents } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { sleep } from '../assertions.js';
import { anOrder, anOrderAt } from '../builders.js';
import type { FakeClock } from '../fake-clock.js';

/** A log under test, on storage of its own (nothing left from another test). */
export interface OrderEventLogFixture {
  readonly log: OrderEventLog;
  /** A second instance on the same storage ("another process"): required when the contract runs `shared`. */
  readonly peer?: OrderEventLog | undefined;
  /** The clock both instances take append times from. */
  readonly clock: FakeClock;
  close(): Promise<void>;
}

/** The window the fixture's logs keep (the adapters' defaults when absent). */
export interface OrderEventLogWindow {
  readonly keepAtLeast?: number | undefined;
  readonly keepForMs?: number | undefined;
}

export type OrderEventLogFactory = (window: OrderEventLogWindow) => Promise<OrderEventLogFixture>;

export interface OrderEventLogTraits {
  /** Instances share storage (Redis): the cross-instance tests are defined only then. */
  readonly shared: boolean;
}

/** Opens fixtures for one test; `closeAll` (in afterEach) closes them. */
export function fixtures(factory: OrderEventLogFactory): {
  open(window?: OrderEventLogWindow): Promise<OrderEventLogFixture>;
  closeAll(): Promise<void>;
} {
  let opened: OrderEventLogFixture[] = [];
  return {
    async open(window = {}) {
      const fixture = await factory(window);
      opened.push(fixture);
      return fixture;
    },
    async closeAll() {
      const closing = opened;
      opened = [];
      await Promise.all(closing.map((fixture) => fixture.close()));
    },
  };
}

export function peerOf(fixture: OrderEventLogFixture): OrderEventLog {
  if (fixture.peer === undefined) throw new Error('a shared OrderEventLog fixture must give a peer');
  return fixture.peer;
}

/** The `order.placed` event of a new order. */
export function aPlacedEvent(): OrderEventData {
  return eventOfVersion(anOrder(), 1);
}

/** `n` placed events of distinct orders. */
export function placedEvents(n: number): OrderEventData[] {
  return Array.from({ length: n }, () => aPlacedEvent());
}

/** Every event of an order taken to `ready` (versions 1 to 4). */
export function eventsOfAReadyOrder(): OrderEventData[] {
  return unpublishedEvents(anOrderAt('ready'), 0);
}

/** Every event after `after`, read page by page. */
export async function readAllEvents(log: OrderEventLog, after = '0', limit = 1000): Promise<OrderEvent[]> {
  const events: OrderEvent[] = [];
  for (let cursor = after; ; ) {
    const replay = await log.readAfter(cursor, limit);
    if (replay.kind === 'reset') throw new Error(`readAfter(${cursor}) answered reset`);
    events.push(...replay.events);
    if (!replay.more) return events;
    cursor = replay.events[replay.events.length - 1]!.id;
  }
}

/** What the events say, without their ids: to compare with what was appended. */
export const keyOf = (event: OrderEventData): string => `${event.orderId}@${event.version}`;

/** A listener that records what it is told. */
export class EventRecorder implements OrderEventListener {
  readonly events: OrderEvent[] = [];
  gaps = 0;

  event(event: OrderEvent): void {
    this.events.push(event);
  }

  gap(): void {
    this.gaps++;
  }

  get ids(): string[] {
    return this.events.map((event) => event.id);
  }

  /** The ids received after `id` (a subscriber may also get events of before it subscribed). */
  idsAfter(id: string): string[] {
    return this.ids.filter((received) => Number(received) > Number(id));
  }
}

/** Waits until `check` passes (the Redis log delivers asynchronously), failing with its last error. */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(10);
    }
  }
}

/** Ids as numbers, strictly increasing: nothing twice, nothing out of order. */
export function expectIncreasing(ids: readonly string[]): void {
  const numbers = ids.map(Number);
  for (let i = 1; i < numbers.length; i++) expect(numbers[i]!, `ids ${ids.join(',')}`).to.be.greaterThan(numbers[i - 1]!);
}

/** `n` consecutive ids from `first`. */
export function idsFrom(first: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => String(first + i));
}
