/**
 * Order events through the use cases, on the real memory adapters: what the relay publishes from
 * the outbox, and what the kitchen's and an order's feeds hand their sinks (snapshot, replay by
 * id, reset, live), including a log that fails and one that loses events.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { FeedItem, OrderEvent, OrderEventLog, Storefront } from '@storefront/domain';
import type { OrderEventData, OrderEventListener } from '@storefront/domain/adapter-kit';
import { createStorefront } from '@storefront/domain';
import { unpublishedEvents } from '@storefront/domain/adapter-kit';
import { expectDomainError, FakeClock } from '@storefront/testing';
import { createMemoryAdapters, InMemoryOrderEventLog } from '../../src/index.js';
import { aWorld, cryptoOn, withMenu, type World } from './world.js';

/** What a sink was handed, as short strings: `<id> <type> <status>@<version>` or `reset`. */
function recorder() {
  const items: FeedItem[] = [];
  const sink = (item: FeedItem): void => {
    items.push(item);
  };
  const lines = (): string[] =>
    items.map((item) => (item.kind === 'reset' ? 'reset' : `${item.event.id} ${item.event.type} ${item.event.status}@${item.event.version}`));
  return { items, sink, lines };
}

async function aShop(world: World = aWorld()) {
  const { soup } = await withMenu(world);
  const owner = await world.storefront.registerCustomer.execute({ email: 'olga@example.com', name: 'Olga', password: 'olga-password' });
  const place = async () =>
    (await world.storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 1 }] })).order;
  return {
    world,
    storefront: world.storefront,
    place,
    move: (orderId: string, status: string, reason?: string) =>
      world.storefront.moveOrder.execute({ orderId, status, ...(reason === undefined ? {} : { reason }) }),
    published: () => world.storefront.orderEvents.drain(),
    asOwner: { customerId: owner.customerId, role: 'customer' as const },
    asStranger: { customerId: 'cus_stranger', role: 'customer' as const },
    asStaff: { customerId: 'cus_staff', role: 'staff' as const },
  };
}

/** A log whose appends can be switched off (Redis down) and whose live delivery can lose events. */
class UnreliableLog implements OrderEventLog {
  down = false;
  appends = 0;
  private readonly listeners = new Set<OrderEventListener>();
  constructor(readonly inner: OrderEventLog) {
    inner.subscribe({ event: (e) => this.listeners.forEach((l) => l.event(e)), gap: () => this.listeners.forEach((l) => l.gap()) });
  }
  append(events: readonly OrderEventData[]): Promise<void> {
    this.appends += 1;
    return this.down ? Promise.reject(new Error('log down')) : this.inner.append(events);
  }
  position(orderId?: string) {
    return this.inner.position(orderId);
  }
  /** Runs around the next read of a replay: a publisher racing the feed that is resuming. */
  beforeRead: (() => Promise<void>) | null = null;
  afterRead: (() => Promise<void>) | null = null;
  async readAfter(after: string, limit: number) {
    const before = this.beforeRead;
    const afterHook = this.afterRead;
    this.beforeRead = this.afterRead = null;
    await before?.();
    const replay = await this.inner.readAfter(after, limit);
    await afterHook?.();
    return replay;
  }
  subscribe(listener: OrderEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  loseEvents(): void {
    this.listeners.forEach((l) => l.gap());
  }
  eraseDeliveryAddresses(customerId: string): Promise<void> {
    return this.inner.eraseDeliveryAddresses(customerId);
  }
}

function aWorldOn(log: (clock: FakeClock) => OrderEventLog): World & { storefront: Storefront } {
  const clock = new FakeClock();
  const adapters = createMemoryAdapters({ clock });
  const crypto = cryptoOn(clock);
  const storefront = createStorefront({ ...adapters, events: log(clock), hasher: crypto.hasher, tokens: crypto.tokens, clock });
  return { storefront, adapters, clock, hasher: crypto.hasher as never, tokens: crypto.tokens };
}

describe('Order events', () => {
  describe('the kitchen feed', () => {
    it('hands over every placement and move, in order, with increasing ids', async () => {
      const shop = await aShop();
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({}, feed.sink);
      const order = await shop.place();
      await shop.published();
      await shop.move(order.orderId, 'accepted');
      await shop.move(order.orderId, 'rejected').catch(() => undefined); // refused: no event
      await shop.move(order.orderId, 'cancelled', 'out of soup');
      await shop.published();
      expect(feed.lines()).to.deep.equal(['1 order.placed placed@1', '2 order.status accepted@2', '3 order.status cancelled@3']);
      const placed = feed.items[0] as { event: OrderEvent };
      expect(placed.event.order).to.deep.include({ orderId: order.orderId, status: 'placed', version: 1 });
      expect((feed.items[2] as { event: OrderEvent }).event.reason).to.equal('out of soup');
    });

    it('replays exactly what came after Last-Event-ID, then goes on live', async () => {
      const shop = await aShop();
      const a = await shop.place();
      const b = await shop.place();
      await shop.move(a.orderId, 'accepted');
      await shop.published();
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({ lastEventId: '1' }, feed.sink);
      await shop.move(b.orderId, 'accepted');
      await shop.published();
      expect(feed.lines()).to.deep.equal(['2 order.placed placed@1', '3 order.status accepted@2', '4 order.status accepted@2']);
    });

    it('answers reset for an id it cannot resume from, then goes on live', async () => {
      const shop = await aShop();
      await shop.place();
      await shop.published();
      for (const bad of ['abc', '-1', '01', '999', '']) {
        const feed = recorder();
        const opened = await shop.storefront.orderFeeds.openKitchen({ lastEventId: bad }, feed.sink);
        const order = await shop.place();
        await shop.published();
        expect(feed.lines(), bad).to.have.length(2);
        expect(feed.lines()[0], bad).to.equal('reset');
        expect((feed.items[1] as { event: OrderEvent }).event.orderId).to.equal(order.orderId);
        opened.close();
      }
    });

    it('stops at once when closed', async () => {
      const shop = await aShop();
      const feed = recorder();
      const opened = await shop.storefront.orderFeeds.openKitchen({}, feed.sink);
      opened.close();
      await shop.place();
      await shop.published();
      expect(feed.items).to.deep.equal([]);
      expect(shop.storefront.orderFeeds.open).to.equal(0);
    });
  });

  describe('an order feed', () => {
    it('starts with the current state, then follows that order only', async () => {
      const shop = await aShop();
      const order = await shop.place();
      const other = await shop.place();
      await shop.move(order.orderId, 'accepted');
      await shop.published();
      const feed = recorder();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId }, feed.sink);
      await shop.move(other.orderId, 'accepted');
      await shop.move(order.orderId, 'preparing');
      await shop.published();
      expect(feed.lines()).to.deep.equal(['3 order.status accepted@2', '5 order.status preparing@3']);
    });

    it('is open to the owner and the kitchen, and not_found to anybody else or for an unknown id', async () => {
      const shop = await aShop();
      const order = await shop.place();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asStaff, orderId: order.orderId }, recorder().sink);
      const feed = recorder();
      await expectDomainError(shop.storefront.orderFeeds.openOrder({ viewer: shop.asStranger, orderId: order.orderId }, feed.sink), 'not_found');
      await expectDomainError(shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: 'ord_unknown' }, feed.sink), 'not_found');
      expect(feed.items).to.deep.equal([]);
      expect(shop.storefront.orderFeeds.open).to.equal(1);
    });

    it('resumes after the snapshot id without the snapshot and without a change twice', async () => {
      const shop = await aShop();
      const order = await shop.place();
      await shop.published();
      const first = recorder();
      const opened = await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId }, first.sink);
      opened.close();
      const lastId = (first.items[0] as { event: OrderEvent }).event.id;
      await shop.move(order.orderId, 'accepted');
      await shop.move(order.orderId, 'preparing');
      await shop.published();
      const again = recorder();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId, lastEventId: lastId }, again.sink);
      await shop.move(order.orderId, 'ready');
      await shop.published();
      expect(first.lines()).to.deep.equal(['1 order.status placed@1']);
      expect(again.lines()).to.deep.equal(['2 order.status accepted@2', '3 order.status preparing@3', '4 order.status ready@4']);
    });

    it('after a reset, starts again from the current state', async () => {
      const shop = await aShop();
      const order = await shop.place();
      await shop.move(order.orderId, 'accepted');
      await shop.published();
      const feed = recorder();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId, lastEventId: 'garbage' }, feed.sink);
      expect(feed.lines()).to.deep.equal(['reset', '2 order.status accepted@2']);
    });
  });

  describe('publishing from the outbox', () => {
    it('stores a move while the log is down, publishes it once the log is back, and never twice', async () => {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({}, feed.sink);
      log.down = true;
      const order = await shop.place();
      const moved = await shop.move(order.orderId, 'accepted');
      expect(moved.version).to.equal(2);
      await shop.published();
      expect(feed.items).to.deep.equal([]);
      log.down = false;
      await shop.published();
      await shop.published();
      expect(feed.lines()).to.deep.equal(['1 order.placed placed@1', '2 order.status accepted@2']);
      expect(await shop.world.adapters.orderOutbox.listUnpublished(10)).to.deep.equal([]);
    });

    it('shows an order stream the published state while newer changes wait, then each change once', async () => {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      const order = await shop.place();
      await shop.published();
      log.down = true;
      await shop.move(order.orderId, 'accepted');
      const feed = recorder();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId }, feed.sink);
      log.down = false;
      await shop.published();
      expect(feed.lines()).to.deep.equal(['1 order.status placed@1', '2 order.status accepted@2']);
    });

    it('does not show a change twice when the stream opened before anything of the order was published', async () => {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      log.down = true;
      const order = await shop.place();
      await shop.move(order.orderId, 'accepted');
      const feed = recorder();
      await shop.storefront.orderFeeds.openOrder({ viewer: shop.asOwner, orderId: order.orderId }, feed.sink);
      log.down = false;
      await shop.published();
      await shop.move(order.orderId, 'preparing');
      await shop.published();
      expect(feed.lines()).to.deep.equal(['0 order.status accepted@2', '3 order.status preparing@3']);
    });

    it('publishes changes stored while a drain runs without waiting for the sweep (none is started here)', async () => {
      const shop = await aShop();
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({}, feed.sink);
      const order = await shop.place();
      await Promise.all([shop.place(), shop.move(order.orderId, 'accepted'), shop.place()]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(feed.lines().map((line) => line.split(' ')[0])).to.deep.equal(['1', '2', '3', '4']);
    });

    it('publishes a change again after a crash between the append and the mark: the log keeps it once', async () => {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      log.down = true;
      const order = await shop.place();
      await shop.published();
      const due = await world.adapters.orderOutbox.listUnpublished(10);
      expect(due.map((d) => d.order.orderId)).to.deep.equal([order.orderId]);
      // As if a relay appended and died before marking: the events are in the log, the mark is not.
      await log.inner.append(unpublishedEvents(due[0]!.order, due[0]!.publishedVersion));
      log.down = false;
      await shop.published();
      expect(log.appends).to.be.greaterThan(1);
      expect(await world.adapters.orderOutbox.listUnpublished(10)).to.deep.equal([]);
      const replay = await log.readAfter('0', 10);
      expect(replay.kind === 'events' && replay.events.map((e) => `${e.type}@${e.version}`)).to.deep.equal(['order.placed@1']);
    });
  });

  describe('a feed resuming while changes are published', () => {
    async function racing(hook: 'beforeRead' | 'afterRead') {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      const a = await shop.place();
      const b = await shop.place();
      await shop.published();
      log[hook] = async () => {
        await shop.move(b.orderId, 'accepted');
        await shop.published();
      };
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({ lastEventId: '0' }, feed.sink);
      await shop.move(a.orderId, 'accepted');
      await shop.published();
      return feed.lines();
    }

    it('writes a change published before the replay read once (it is in the replay and was held back live)', async () => {
      expect(await racing('beforeRead')).to.deep.equal([
        '1 order.placed placed@1', '2 order.placed placed@1', '3 order.status accepted@2', '4 order.status accepted@2',
      ]);
    });

    it('writes a change published after the replay read after the replay, not before it', async () => {
      expect(await racing('afterRead')).to.deep.equal([
        '1 order.placed placed@1', '2 order.placed placed@1', '3 order.status accepted@2', '4 order.status accepted@2',
      ]);
    });
  });

  describe('when the log loses events', () => {
    it('tells every feed to start over (reset), and goes on live', async () => {
      let log!: UnreliableLog;
      const world = aWorldOn((clock) => (log = new UnreliableLog(new InMemoryOrderEventLog({ clock }))));
      const shop = await aShop(world);
      const feed = recorder();
      await shop.storefront.orderFeeds.openKitchen({}, feed.sink);
      log.loseEvents();
      await shop.place();
      await shop.published();
      expect(feed.lines()).to.deep.equal(['reset', '1 order.placed placed@1']);
    });
  });
});
