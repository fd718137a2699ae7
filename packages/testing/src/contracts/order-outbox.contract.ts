/**
 * What every OrderOutbox must do (docs/decisions.md, "Live order updates"): every stored change is
 * listed until its version is marked published; marks only go up; least recently changed first.
 * A store may be shared by tests whose orders are never marked, so each test works in an era of
 * its own, older than anything stored before (see `dueOf`), and reads only its orders. Times go
 * forward within a test, so stored order and `updatedAt` order agree.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderOutbox, OrderRepository, OrderStatus } from '@storefront/domain';
import type { UnpublishedOrder } from '@storefront/domain/adapter-kit';
import { OrderStamper, planMove } from '@storefront/domain/adapter-kit';
import { anOrder } from '../builders.js';

const DAY_MS = 24 * 3600 * 1000;
let eras = 0;

/** A start time older than every earlier era, and than the orders the other contracts make (1989 on). */
function olderEra(): number {
  eras += 1;
  return Date.UTC(1985, 0, 1) - eras * DAY_MS;
}

/** The outbox's entries for `mine`, which are its oldest changes: `extra` more are read to show none is missing. */
async function dueOf(outbox: OrderOutbox, mine: readonly Order[], extra = 5): Promise<UnpublishedOrder[]> {
  const ids = new Set(mine.map((order) => order.orderId));
  const due = await outbox.listUnpublished(mine.length + extra);
  return due.filter((entry) => ids.has(entry.order.orderId));
}

/** A test's orders and moves, each change one second after the one before. */
class Era {
  private at: number = olderEra();

  next(): Date {
    this.at += 1000;
    return new Date(this.at);
  }

  order(): Order {
    return anOrder({ createdAt: this.next() });
  }

  async move(orders: OrderRepository, order: Order, to: OrderStatus): Promise<Order> {
    const moved = await orders.applyMove(planMove(order, { to, by: 'staff', reason: to === 'rejected' || to === 'cancelled' ? 'A reason' : undefined }, this.next()));
    expect(moved, `move ${order.orderId} to ${to}`).to.not.equal(null);
    return moved!;
  }
}

/** The outbox, and the orders' store whose changes it lists. */
export interface OutboxStores {
  readonly orders: OrderRepository;
  readonly orderOutbox: OrderOutbox;
}

export function describeOrderOutboxContract(name: string, factory: () => Promise<OutboxStores>): void {
  describe(`${name} (OrderOutbox contract)`, () => {
    it('lists a new order as unpublished, with its published mark at 0, until it is marked', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order, publishedVersion: 0 }]);
      // Listing is not publishing: it is listed again.
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order, publishedVersion: 0 }]);
    });

    it('no longer lists an order once its version is marked published', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const [published, other] = [era.order(), era.order()];
      await orders.insert(published);
      await orders.insert(other);
      await outbox.markPublished(published.orderId, 1);
      expect(await dueOf(outbox, [published, other])).to.deep.equal([{ order: other, publishedVersion: 0 }]);
    });

    it('lists an order again after a move, with the mark of the version published before it', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      await outbox.markPublished(order.orderId, 1);
      const accepted = await era.move(orders, order, 'accepted');
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order: accepted, publishedVersion: 1 }]);
      await outbox.markPublished(order.orderId, 2);
      expect(await dueOf(outbox, [order])).to.deep.equal([]);
    });

    it('keeps an order listed when it moved between the listing and the mark: the newer version stays due', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      const [listed] = await dueOf(outbox, [order]);
      const accepted = await era.move(orders, listed!.order, 'accepted');
      await outbox.markPublished(order.orderId, listed!.order.version);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order: accepted, publishedVersion: 1 }]);
      await outbox.markPublished(order.orderId, accepted.version);
      expect(await dueOf(outbox, [order])).to.deep.equal([]);
    });

    it('marks a batch in one call by the rules of markPublished, where the store offers it', async function () {
      const { orders, orderOutbox: outbox } = await factory();
      if (outbox.markAllPublished === undefined) return this.skip();
      const era = new Era();
      const [placed, moved, ahead, kept] = [era.order(), era.order(), era.order(), era.order()];
      for (const order of [placed, moved, ahead, kept]) await orders.insert(order);
      const accepted = await era.move(orders, moved, 'accepted');
      const ghost = new OrderStamper().next(era.next()).orderId;
      // placed: done; moved: marked at 1 while at 2 (stays due, listed last: changed last); ahead: a version it lacks (ignored).
      await outbox.markAllPublished([
        { orderId: placed.orderId, version: 1 },
        { orderId: moved.orderId, version: 1 },
        { orderId: ahead.orderId, version: 3 },
        { orderId: ghost, version: 1 },
      ]);
      await outbox.markAllPublished([]);
      expect(await dueOf(outbox, [placed, moved, ahead, kept])).to.deep.equal([
        { order: ahead, publishedVersion: 0 },
        { order: kept, publishedVersion: 0 },
        { order: accepted, publishedVersion: 1 },
      ]);
      expect(await orders.findById(ghost)).to.equal(null);
    });

    it('never lowers a mark', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const [done, halfway] = [era.order(), era.order()];
      for (const order of [done, halfway]) await orders.insert(order);
      await era.move(orders, done, 'cancelled');
      const accepted = await era.move(orders, halfway, 'accepted');
      const preparing = await era.move(orders, accepted, 'preparing');
      await outbox.markPublished(done.orderId, 2);
      await outbox.markPublished(halfway.orderId, 2);
      // Late marks of older versions (a slower relay instance) change nothing.
      await outbox.markPublished(done.orderId, 1);
      await outbox.markPublished(halfway.orderId, 1);
      expect(await dueOf(outbox, [done, halfway])).to.deep.equal([{ order: preparing, publishedVersion: 2 }]);
    });

    it('ignores a mark of a version the order does not have yet: it would hide the changes to come', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      await outbox.markPublished(order.orderId, 2);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order, publishedVersion: 0 }]);
      const accepted = await era.move(orders, order, 'accepted');
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order: accepted, publishedVersion: 0 }]);
    });

    it('ignores a mark of an order nobody stored, and stores nothing', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      const ghost = new OrderStamper().next(era.next()).orderId;
      for (const orderId of [ghost, 'ord_nope', '']) await outbox.markPublished(orderId, 1);
      expect(await orders.findById(ghost)).to.equal(null);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order, publishedVersion: 0 }]);
    });

    it('lists at most `limit` orders, the least recently changed first', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const three = [era.order(), era.order(), era.order()];
      for (const order of three) await orders.insert(order);
      const [first, second, third] = three as [Order, Order, Order];
      const ids = (due: readonly UnpublishedOrder[]) => due.map((entry) => entry.order.orderId);
      expect(ids(await outbox.listUnpublished(2))).to.deep.equal([first.orderId, second.orderId]);
      expect(await outbox.listUnpublished(0)).to.deep.equal([]);
      // A move makes the first the most recently changed; a mark does not move the second.
      await era.move(orders, first, 'accepted');
      await outbox.markPublished(first.orderId, 1);
      const accepted = await era.move(orders, second, 'accepted');
      await outbox.markPublished(second.orderId, 1);
      expect(ids(await outbox.listUnpublished(3))).to.deep.equal([third.orderId, first.orderId, second.orderId]);
      expect((await outbox.listUnpublished(3))[2]).to.deep.equal({ order: accepted, publishedVersion: 1 });
    });

    it('neither lists an order twice nor resets its mark when the same order is inserted again (a keyed replay)', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      expect((await orders.insert(order)).inserted).to.equal(false);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order, publishedVersion: 0 }]);
      await outbox.markPublished(order.orderId, 1);
      expect((await orders.insert(order)).inserted).to.equal(false);
      expect(await dueOf(outbox, [order])).to.deep.equal([]);
      const accepted = await era.move(orders, order, 'accepted');
      expect((await orders.insert(order)).inserted).to.equal(false);
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order: accepted, publishedVersion: 1 }]);
    });

    it('hands out copies: editing a listed entry changes nothing stored', async () => {
      const { orders, orderOutbox: outbox } = await factory();
      const era = new Era();
      const order = era.order();
      await orders.insert(order);
      const accepted = await era.move(orders, order, 'accepted');
      const [listed] = await dueOf(outbox, [order]);
      const edits = [
        () => ((listed as { publishedVersion: number }).publishedVersion = 2),
        () => listed!.order.updatedAt.setTime(0),
        () => listed!.order.statusHistory[0]!.at.setTime(0),
        () => (listed!.order.statusHistory as unknown[]).push({ status: 'ready', at: new Date() }),
        () => ((listed!.order as { version: number }).version = 9),
      ];
      for (const edit of edits) {
        try {
          edit();
        } catch {
          // A frozen entry refuses the change, which is just as good.
        }
      }
      expect(await dueOf(outbox, [order])).to.deep.equal([{ order: accepted, publishedVersion: 0 }]);
      expect(await orders.findById(order.orderId)).to.deep.equal(accepted);
    });
  });
}
