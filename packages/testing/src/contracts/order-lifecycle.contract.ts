/**
 * What every OrderRepository must do for the kitchen: find any order by id, apply a move as one
 * compare-and-set on its version, and list the queue by status. A store may be shared by other
 * tests and status lists are global, so each listing test places its orders in an era of its own
 * (see `olderEra`) and checks totals as growth over what was there.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderRepository, OrderStatus } from '@storefront/domain';
import { applyOrderMove, newId, OrderStamper, planMove } from '@storefront/domain/adapter-kit';
import { anOrder, anOrderAt, aTaxedOrder } from '../builders.js';

const DAY_MS = 24 * 3600 * 1000;
let eras = 0;

/** A start time older than every earlier era (and than any order other suites make). */
function olderEra(): number {
  eras += 1;
  return Date.UTC(1990, 0, 1) - eras * 30 * DAY_MS;
}

/** An order id as the domain stamps it, for an order nobody stored. */
function unknownOrderId(): string {
  return new OrderStamper().next(new Date()).orderId;
}

async function totalOf(orders: OrderRepository, statuses: readonly OrderStatus[]): Promise<number> {
  return (await orders.listByStatus(statuses, { page: 1, limit: 1 })).total;
}

export function describeOrderLifecycleContract(name: string, factory: () => Promise<OrderRepository>): void {
  describe(`${name} (OrderRepository contract: lifecycle)`, () => {
    describe('findById', () => {
      it("finds any customer's order by its id", async () => {
        const orders = await factory();
        const mine = anOrder();
        const theirs = anOrder();
        await orders.insert(mine);
        await orders.insert(theirs);
        expect(await orders.findById(mine.orderId)).to.deep.equal(mine);
        expect(await orders.findById(theirs.orderId)).to.deep.equal(theirs);
      });

      it('answers null for an order id nobody stored, stamped or not', async () => {
        const orders = await factory();
        await orders.insert(anOrder());
        expect(await orders.findById(unknownOrderId())).to.equal(null);
        expect(await orders.findById('ord_nope')).to.equal(null);
        expect(await orders.findById('')).to.equal(null);
      });

      it('finds and moves an order whose id was not stamped by the domain (an import, say)', async () => {
        const orders = await factory();
        // A random `ord_` id reads as some time that is not the order's; `ord_import_…` reads as none.
        for (const orderId of [newId('ord'), `ord_import_${newId('cus').slice(4)}`]) {
          const order = anOrder({ orderId });
          expect((await orders.insert(order)).inserted).to.equal(true);
          expect((await orders.insert(order)).inserted, 'a second insert').to.equal(false);
          expect(await orders.findById(orderId)).to.deep.equal(order);
          expect(await orders.findOrder(order.customerId, orderId)).to.deep.equal(order);
          const moved = await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
          expect(await orders.findById(orderId)).to.deep.equal(moved);
          expect(moved!.version).to.equal(2);
        }
      });

      it('finds an order stored in any status, with its whole history and reason', async () => {
        const orders = await factory();
        const cancelled = anOrderAt('cancelled', { reason: 'Out of dough' });
        await orders.insert(cancelled);
        expect(await orders.findById(cancelled.orderId)).to.deep.equal(cancelled);
      });
    });

    describe('applyMove', () => {
      it('changes status, version, updated_at and history together and answers the moved order', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const move = planMove(order, { to: 'accepted', by: 'staff' }, new Date(order.createdAt.getTime() + 60_000));
        const moved = await orders.applyMove(move);
        expect(moved).to.deep.equal(applyOrderMove(order, move));
        expect(moved).to.deep.include({ status: 'accepted', version: 2, updatedAt: move.at });
        expect(moved!.statusHistory).to.deep.equal([{ status: 'placed', at: order.createdAt }, { status: 'accepted', at: move.at }]);
      });

      it('is seen by findOrder, findById and listByCustomer afterwards', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const moved = await orders.applyMove(planMove(order, { to: 'cancelled', by: 'owner' }, new Date()));
        expect(await orders.findOrder(order.customerId, order.orderId)).to.deep.equal(moved);
        expect(await orders.findById(order.orderId)).to.deep.equal(moved);
        expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items).to.deep.equal([moved]);
      });

      it('stores the reason of a move that has one, and keeps it on the order', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const accepted = await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
        const cancelled = await orders.applyMove(planMove(accepted!, { to: 'cancelled', by: 'staff', reason: 'The oven broke' }, new Date()));
        expect(cancelled).to.deep.include({ status: 'cancelled', version: 3, reason: 'The oven broke' });
        expect((await orders.findById(order.orderId))!.reason).to.equal('The oven broke');
      });

      it('walks an order through the whole kitchen, one version after another', async () => {
        const orders = await factory();
        let order = anOrder();
        await orders.insert(order);
        const start = order.createdAt.getTime();
        const steps: OrderStatus[] = ['accepted', 'preparing', 'ready', 'completed'];
        for (const [i, to] of steps.entries()) {
          const moved = await orders.applyMove(planMove(order, { to, by: 'staff' }, new Date(start + (i + 1) * 60_000)));
          expect(moved, `move to ${to}`).to.not.equal(null);
          order = moved!;
        }
        const stored = await orders.findById(order.orderId);
        expect(stored).to.deep.include({ status: 'completed', version: 5 });
        expect(stored!.statusHistory.map((change) => [change.status, change.at.getTime() - start])).to.deep.equal([
          ['placed', 0], ['accepted', 60_000], ['preparing', 120_000], ['ready', 180_000], ['completed', 240_000],
        ]);
      });

      it('refuses (null) a move planned on a version that has moved on, and changes nothing', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const accepted = await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
        // Planned on version 1, which is gone: a stale kitchen screen.
        const stale = planMove(order, { to: 'rejected', by: 'staff', reason: 'Too late' }, new Date());
        expect(await orders.applyMove(stale)).to.equal(null);
        expect(await orders.findById(order.orderId)).to.deep.equal(accepted);
      });

      it('answers null for a move of an order nobody stored, and stores nothing', async () => {
        const orders = await factory();
        const ghost = anOrder();
        expect(await orders.applyMove(planMove(ghost, { to: 'accepted', by: 'staff' }, new Date()))).to.equal(null);
        expect(await orders.findById(ghost.orderId)).to.equal(null);
        expect((await orders.listByCustomer(ghost.customerId, { page: 1, limit: 20 })).total).to.equal(0);
      });

      it('lets exactly one of ten moves planned on the same version win, and applies it once', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const start = order.createdAt.getTime();
        const moves = Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? planMove(order, { to: 'accepted', by: 'staff' }, new Date(start + 1000 + i))
            : planMove(order, { to: 'rejected', by: 'staff', reason: `No ${i}` }, new Date(start + 1000 + i)),
        );
        const results = await Promise.all(moves.map((move) => orders.applyMove(move)));
        const winners = results.filter((result): result is Order => result !== null);
        expect(winners).to.have.length(1);
        const stored = await orders.findById(order.orderId);
        expect(stored).to.deep.equal(winners[0]);
        expect(stored!.version).to.equal(2);
        expect(stored!.statusHistory).to.have.length(2);
        const winner = moves[results.indexOf(winners[0]!)]!;
        expect(stored).to.deep.equal(applyOrderMove(order, winner));
      });

      it("keeps an order's taxes and its lines' rates through its moves", async () => {
        const orders = await factory();
        const order = aTaxedOrder(true);
        await orders.insert(order);
        const accepted = await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
        const ready = await orders.applyMove(planMove(accepted!, { to: 'preparing', by: 'staff' }, new Date()));
        expect(ready).to.deep.include({ items: order.items, pricesIncludeTax: true, taxes: order.taxes, taxTotal: 346, amount: 3840, subtotal: 3390 });
        expect(await orders.findById(order.orderId)).to.deep.equal(ready);
      });

      it('is not changed by edits to the order it handed out', async () => {
        const orders = await factory();
        const order = anOrder();
        await orders.insert(order);
        const moved = await orders.applyMove(planMove(order, { to: 'accepted', by: 'staff' }, new Date()));
        const expected = structuredClone(moved);
        try {
          moved!.updatedAt.setTime(0);
          moved!.statusHistory[1]!.at.setTime(0);
          (moved!.statusHistory as unknown[]).push({ status: 'ready', at: new Date() });
        } catch {
          // A frozen history refuses the change, which is just as good.
        }
        expect(await orders.findById(order.orderId)).to.deep.equal(expected);
      });
    });

    describe('listByStatus', () => {
      it("lists every customer's orders of a status oldest first, by created_at and then order_id", async () => {
        const orders = await factory();
        const before = await totalOf(orders, ['placed']);
        const era = olderEra();
        const prefix = newId('ord');
        const at = (ms: number, suffix: string): Order => anOrder({ orderId: `${prefix}${suffix}`, createdAt: new Date(era + ms) });
        // Three customers; two orders share a timestamp; the oldest is stored last.
        const sorted = [at(0, 'x'), at(1000, 'a'), at(1000, 'b'), at(2000, 'c')];
        for (const order of [sorted[2]!, sorted[3]!, sorted[1]!, sorted[0]!]) await orders.insert(order);
        const page = await orders.listByStatus(['placed'], { page: 1, limit: 4 });
        expect(page.items).to.deep.equal(sorted);
        expect(page.total).to.equal(before + 4);
      });

      it('sorts first an order created before the others even when it is stored last', async () => {
        const orders = await factory();
        const era = olderEra();
        const later = [anOrder({ createdAt: new Date(era + 5000) }), anOrder({ createdAt: new Date(era + 6000) })];
        for (const order of later) await orders.insert(order);
        const oldest = anOrder({ createdAt: new Date(era) });
        await orders.insert(oldest);
        expect((await orders.listByStatus(['placed'], { page: 1, limit: 3 })).items).to.deep.equal([oldest, ...later]);
      });

      it('filters on one status or several, merging them oldest first', async () => {
        const orders = await factory();
        const statuses: OrderStatus[] = ['placed', 'ready', 'completed'];
        const before = await totalOf(orders, statuses);
        const beforeAccepted = await totalOf(orders, ['accepted']);
        const era = olderEra();
        const cycle: OrderStatus[] = ['ready', 'accepted', 'placed', 'completed', 'placed', 'ready'];
        const all = cycle.map((status, i) => anOrderAt(status, { createdAt: new Date(era + i * 1000) }));
        for (const order of [...all].reverse()) await orders.insert(order);
        const wanted = all.filter((order) => statuses.includes(order.status));
        const page = await orders.listByStatus(statuses, { page: 1, limit: wanted.length });
        expect(page.items).to.deep.equal(wanted);
        expect(page.total).to.equal(before + wanted.length);
        expect((await orders.listByStatus(['accepted'], { page: 1, limit: 1 })).items).to.deep.equal([all[1]]);
        expect(await totalOf(orders, ['accepted'])).to.equal(beforeAccepted + 1);
        // The same status twice counts once.
        expect((await orders.listByStatus(['ready', 'ready'], { page: 1, limit: 1 })).total).to.equal(await totalOf(orders, ['ready']));
      });

      it('pages a merged list with total and nextPage, each row once, and an empty page past the end', async () => {
        const orders = await factory();
        const statuses: OrderStatus[] = ['placed', 'preparing', 'cancelled'];
        const before = await totalOf(orders, statuses);
        const era = olderEra();
        const cycle: OrderStatus[] = ['placed', 'preparing', 'cancelled', 'accepted'];
        const all = Array.from({ length: 14 }, (_, i) => anOrderAt(cycle[(i * 7) % 4]!, { createdAt: new Date(era + i * 1000) }));
        for (const order of [...all].reverse()) await orders.insert(order);
        const wanted = all.filter((order) => statuses.includes(order.status));
        const total = before + wanted.length;
        const pagesOfMine = Math.ceil(wanted.length / 3);
        for (let page = 1; page <= pagesOfMine; page++) {
          const got = await orders.listByStatus(statuses, { page, limit: 3 });
          const expected = wanted.slice((page - 1) * 3, page * 3);
          // A shared store's older rows follow ours on our last, partial page.
          expect(got.items.slice(0, expected.length), `page ${page}`).to.deep.equal(expected);
          expect(got.items, `page ${page}`).to.have.length(Math.min(3, total - (page - 1) * 3));
          expect(got).to.include({ total, page, perPage: 3 });
          expect(got.nextPage, `page ${page}`).to.equal(page * 3 < total ? page + 1 : null);
        }
        const past = Math.ceil(total / 3) + 1;
        expect(await orders.listByStatus(statuses, { page: past, limit: 3 })).to.deep.equal({
          items: [], total, page: past, perPage: 3, nextPage: null,
        });
      });

      it('moves an order out of its status list and into the list of its new status', async () => {
        const orders = await factory();
        const beforePlaced = await totalOf(orders, ['placed']);
        const beforeAccepted = await totalOf(orders, ['accepted']);
        const era = olderEra();
        const three = [0, 1000, 2000].map((ms) => anOrder({ createdAt: new Date(era + ms) }));
        for (const order of three) await orders.insert(order);
        const moved = await orders.applyMove(planMove(three[1]!, { to: 'accepted', by: 'staff' }, new Date()));
        expect((await orders.listByStatus(['placed'], { page: 1, limit: 2 })).items).to.deep.equal([three[0], three[2]]);
        expect(await totalOf(orders, ['placed'])).to.equal(beforePlaced + 2);
        expect((await orders.listByStatus(['accepted'], { page: 1, limit: 1 })).items).to.deep.equal([moved]);
        expect(await totalOf(orders, ['accepted'])).to.equal(beforeAccepted + 1);
        const both = await orders.listByStatus(['placed', 'accepted'], { page: 1, limit: 3 });
        expect(both.items).to.deep.equal([three[0], moved, three[2]]);
      });
    });
  });
}
