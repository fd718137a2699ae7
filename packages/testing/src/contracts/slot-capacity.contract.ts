/**
 * Slot capacity that holds, for every store that can hold places (SlotPlaces) and orders: the
 * domain's PlaceOrder, CancelOrder and MoveOrder on top of a real adapter. Two storefronts share
 * the stores, as two instances of the service share a database. Each test starts at its own random
 * day in the future, so tests against a shared database never count each other's places.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { DomainError, IdempotencyKeys, MenuRepository, OrderRepository, SlotPlaces, StoreStateRepository } from '@storefront/domain';
import { createStorefront, isDomainError } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';
import { expectDomainError, rejectionOf } from '../assertions.js';
import { aProductDraft, uniqueSuffix } from '../builders.js';
import { FakeClock } from '../fake-clock.js';
import { Faults, InjectedFault } from '../faults/faulty.js';

/** The adapters a placement with capacity needs. `second`, when given, is the same database through another connection. */
export interface CapacityAdapters {
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly menu: MenuRepository;
  readonly places: SlotPlaces;
  readonly second?: { readonly orders: OrderRepository; readonly idempotencyKeys: IdempotencyKeys; readonly places: SlotPlaces };
}

const DAY_MS = 86_400_000;
/** Past the domain's lease on a pending place (PLACE_LEASE_MS, 60 s). */
const PAST_THE_LEASE_MS = 61_000;
/** A lease that does not end within a test. */
const LATER = new Date(Date.UTC(9999, 0, 1));
const notUsed = new Proxy({}, { get: () => () => Promise.reject(new Error('not used by these tests')) }) as never;
const openStore: StoreStateRepository = {
  get: () => Promise.resolve(DEFAULT_STORE_STATE),
  setAcceptingOrders: () => Promise.reject(new Error('not used')),
};

export function describeSlotCapacityContract(name: string, factory: () => Promise<CapacityAdapters>): void {
  describe(`${name} (slot capacity contract)`, () => {
    async function world(capacity: number) {
      const stores = await factory();
      // Whole days from 2100 on: far from any other test's slots, and never past for a TTL monitor.
      const clock = new FakeClock(Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 20_000) * DAY_MS);
      const storefront = (orders: OrderRepository, idempotencyKeys: IdempotencyKeys, places: SlotPlaces) =>
        createStorefront(
          { menu: stores.menu, orders, idempotencyKeys, orderOutbox: notUsed, slotPlaces: places, clock, storeState: openStore, events: notUsed, customers: notUsed, pendingErasures: notUsed, sessions: notUsed, resetTokens: notUsed, limiter: notUsed, hasher: notUsed, tokens: notUsed },
          { fulfilment: { capacity } },
        );
      // The first instance's stores can be made to fail (its requests fail or its process dies).
      const orders = new Faults(stores.orders);
      const places = new Faults(stores.places);
      const instances = [
        storefront(orders.target, stores.idempotencyKeys, places.target),
        storefront(stores.second?.orders ?? stores.orders, stores.second?.idempotencyKeys ?? stores.idempotencyKeys, stores.second?.places ?? stores.places),
      ];
      const [product] = await stores.menu.upsertByName([aProductDraft()]);
      const slot = new Date(clock.now().getTime() + DAY_MS + 12 * 3600_000);
      const time = { type: 'pickup', time: new Date(slot.getTime() + 5 * 60_000).toISOString() };
      const customerId = `cus_${uniqueSuffix()}`;
      const place = (i: number, extra: { idempotencyKey?: string; productId?: string } = {}) =>
        instances[i % 2]!.placeOrder.execute({
          customerId,
          items: [{ productId: extra.productId ?? product!.productId, quantity: 1 }],
          fulfilment: time,
          idempotencyKey: extra.idempotencyKey,
        });
      const taken = async () => (await stores.places.taken(slot, new Date(slot.getTime() + 1))).get(slot.getTime()) ?? 0;
      const stored = async () => (await stores.orders.listByCustomer(customerId, { page: 1, limit: 100 })).items;
      return { instances, place, taken, stored, slot, customerId, clock, orders, places, time };
    }

    it('places exactly 10 of 50 simultaneous orders for a slot of 10, the rest refused as full', async function () {
      this.timeout(30_000);
      const w = await world(10);
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => w.place(i)));
      const placed = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as DomainError] : []));
      expect(placed).to.have.length(10);
      expect(refused).to.have.length(40);
      for (const error of refused) {
        expect(isDomainError(error, 'slot_unavailable')).to.equal(true);
        expect(error.details?.[0]).to.include({ path: 'fulfilment.time' });
        expect(error.details?.[0]?.message).to.match(/full/);
      }
      const orders = await w.stored();
      expect(orders).to.have.length(10);
      for (const order of orders) expect(order.fulfilment.promisedAt.getTime()).to.equal(w.slot.getTime());
      expect(await w.taken()).to.equal(10);
    });

    it('fits one more order once one of the slot is cancelled, and only one', async () => {
      const w = await world(3);
      const placed = await Promise.all([0, 1, 2].map((i) => w.place(i)));
      await expectDomainError(w.place(3), 'slot_unavailable');
      await w.instances[1]!.cancelOrder.execute({ customerId: w.customerId, orderId: placed[0]!.order.orderId });
      // A repeated cancel frees nothing more.
      await w.instances[0]!.cancelOrder.execute({ customerId: w.customerId, orderId: placed[0]!.order.orderId });
      const outcomes = await Promise.allSettled([4, 5, 6].map((i) => w.place(i)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      expect(await w.taken()).to.equal(3);
    });

    it('frees the place of an order the kitchen rejects', async () => {
      const w = await world(1);
      const { order } = await w.place(0);
      await expectDomainError(w.place(1), 'slot_unavailable');
      await w.instances[0]!.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'Out of dough' });
      await w.place(1);
      expect(await w.taken()).to.equal(1);
    });

    it('takes no second place for a replayed Idempotency-Key', async () => {
      const w = await world(2);
      const first = await w.place(0, { idempotencyKey: 'key-1' });
      const replay = await w.place(1, { idempotencyKey: 'key-1' });
      expect(replay.replayed).to.equal(true);
      expect(replay.order.orderId).to.equal(first.order.orderId);
      expect(await w.taken()).to.equal(1);
      await w.place(0, { idempotencyKey: 'key-2' });
      await expectDomainError(w.place(1, { idempotencyKey: 'key-3' }), 'slot_unavailable');
    });

    it('takes no place for an order refused for another reason', async () => {
      const w = await world(1);
      await expectDomainError(w.place(0, { productId: 'prd_not_on_the_menu' }), 'unknown_product');
      expect(await w.taken()).to.equal(0);
      await w.place(1);
      expect(await w.taken()).to.equal(1);
    });

    describe('a place whose order is never stored comes back', () => {
      it('gives back the place of a placement whose insert failed once its lease ends, and only then', async () => {
        const w = await world(1);
        w.orders.fail('insert', 'before');
        expect(await rejectionOf(w.place(0))).to.be.instanceOf(InjectedFault);
        expect(await w.taken()).to.equal(1);
        await expectDomainError(w.place(1), 'slot_unavailable');
        w.clock.advance(PAST_THE_LEASE_MS);
        const { order } = await w.place(1);
        expect(await w.stored()).to.deep.equal([order]);
        expect(await w.taken()).to.equal(1);
        await expectDomainError(w.place(3), 'slot_unavailable');
      });

      it('gives back the place of a process that died between the place and the insert', async () => {
        const w = await world(1);
        // The insert never happens: the first instance is gone for good, mid-placement.
        const gate = w.orders.hold('insert');
        void w.place(0).catch(() => undefined);
        await gate.reached;
        expect(await w.taken()).to.equal(1);
        await expectDomainError(w.place(1), 'slot_unavailable');
        w.clock.advance(PAST_THE_LEASE_MS);
        const { order } = await w.place(1);
        expect((await w.stored()).map((o) => o.orderId)).to.deep.equal([order.orderId]);
        expect(await w.taken()).to.equal(1);
      });

      it('shows the place free again in the offered slots once the lease has ended', async () => {
        const w = await world(1);
        w.orders.fail('insert', 'before');
        expect(await rejectionOf(w.place(0))).to.be.instanceOf(InjectedFault);
        const date = w.slot.toISOString().slice(0, 10);
        const offered = async () => (await w.instances[1]!.listSlots.execute({ type: 'pickup', date })).slots.find((s) => s.start.getTime() === w.slot.getTime());
        expect(await offered()).to.equal(undefined);
        w.clock.advance(PAST_THE_LEASE_MS);
        expect(await offered()).to.deep.include({ remaining: 1 });
        expect(await w.taken()).to.equal(0);
      });

      it('keeps the place of an order that was stored though its confirmation was lost', async () => {
        const w = await world(1);
        w.places.fail('confirm', 'before');
        const { order } = await w.place(0);
        w.clock.advance(PAST_THE_LEASE_MS);
        await expectDomainError(w.place(1), 'slot_unavailable');
        expect(await w.stored()).to.deep.equal([order]);
        expect(await w.taken()).to.equal(1);
      });

      it('keeps the place of an order whose insert was stored with its acknowledgement lost', async () => {
        const w = await world(1);
        w.orders.fail('insert', 'after');
        expect(await rejectionOf(w.place(0, { idempotencyKey: 'key-lost' }))).to.be.instanceOf(InjectedFault);
        w.clock.advance(PAST_THE_LEASE_MS);
        await expectDomainError(w.place(1), 'slot_unavailable');
        // The key's retry finds its order and its place.
        const retry = await w.place(0, { idempotencyKey: 'key-lost' });
        expect(retry.replayed).to.equal(true);
        expect(await w.stored()).to.have.length(1);
        expect(await w.taken()).to.equal(1);
      });

      it('lets a retried key keep its place while its lease lasts', async () => {
        const w = await world(1);
        w.orders.fail('insert', 'before');
        expect(await rejectionOf(w.place(0, { idempotencyKey: 'key-retried' }))).to.be.instanceOf(InjectedFault);
        await expectDomainError(w.place(1), 'slot_unavailable');
        const retry = await w.place(1, { idempotencyKey: 'key-retried' });
        expect(retry.replayed).to.equal(false);
        w.clock.advance(PAST_THE_LEASE_MS);
        await expectDomainError(w.place(1), 'slot_unavailable');
        expect(await w.stored()).to.deep.equal([retry.order]);
        expect(await w.taken()).to.equal(1);
      });
    });

    describe('SlotPlaces', () => {
      it('counts an order once however often it takes, and gives back once however often it releases', async () => {
        const { places } = await factory();
        const slot = new Date(Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 20_000) * DAY_MS);
        expect(await places.take(slot, 'ord_a', 2, LATER)).to.equal(true);
        expect(await places.take(slot, 'ord_a', 2, LATER)).to.equal(true);
        expect(await places.take(slot, 'ord_b', 2, LATER)).to.equal(true);
        // Full, yet a holder asking again is told it holds its place.
        expect(await places.take(slot, 'ord_c', 2, LATER)).to.equal(false);
        expect(await places.take(slot, 'ord_b', 2, LATER)).to.equal(true);
        await places.release(slot, 'ord_a');
        await places.release(slot, 'ord_a');
        await places.release(slot, 'ord_never_held');
        const counts = await places.taken(slot, new Date(slot.getTime() + 1));
        expect(counts.get(slot.getTime())).to.equal(1);
        expect(await places.take(slot, 'ord_c', 2, LATER)).to.equal(true);
        expect(await places.take(slot, 'ord_d', 2, LATER)).to.equal(false);
      });

      it('reports the places of the slots starting in the range asked for, and only those', async () => {
        const { places } = await factory();
        const day = Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 20_000) * DAY_MS;
        const at = (minutes: number) => new Date(day + minutes * 60_000);
        await places.take(at(0), 'ord_1', 5, LATER);
        await places.take(at(15), 'ord_2', 5, LATER);
        await places.take(at(15), 'ord_3', 5, LATER);
        await places.take(at(30), 'ord_4', 5, LATER);
        const counts = await places.taken(at(15), at(30));
        expect([...counts.entries()]).to.deep.equal([[at(15).getTime(), 2]]);
      });

      it('holds a place pending until confirmed: only a lapsed pending place is reported and evicted', async () => {
        const { places } = await factory();
        const slot = new Date(Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 20_000) * DAY_MS);
        const end = new Date(slot.getTime() + 1);
        const [t1, t2, t3] = [1, 2, 3].map((minutes) => new Date(slot.getTime() - DAY_MS + minutes * 60_000)) as [Date, Date, Date];
        expect(await places.take(slot, 'ord_confirmed', 3, t1)).to.equal(true);
        expect(await places.confirm(slot, 'ord_confirmed')).to.equal(true);
        expect(await places.take(slot, 'ord_renewed', 3, t1)).to.equal(true);
        expect(await places.take(slot, 'ord_renewed', 3, t3)).to.equal(true);
        expect(await places.take(slot, 'ord_lapsed', 3, t1)).to.equal(true);
        // A confirmed place asked for again stays confirmed.
        expect(await places.take(slot, 'ord_confirmed', 3, t1)).to.equal(true);
        expect(await places.lapsed(slot, end, t2)).to.deep.equal([{ slot, orderId: 'ord_lapsed' }]);
        expect(await places.evict(slot, 'ord_renewed', t2)).to.equal(false);
        expect(await places.evict(slot, 'ord_confirmed', t2)).to.equal(false);
        expect(await places.evict(slot, 'ord_lapsed', t2)).to.equal(true);
        expect(await places.evict(slot, 'ord_lapsed', t2)).to.equal(false);
        expect((await places.taken(slot, end)).get(slot.getTime())).to.equal(2);
        expect(await places.confirm(slot, 'ord_lapsed')).to.equal(false);
        expect(await places.lapsed(slot, end, t3)).to.deep.equal([{ slot, orderId: 'ord_renewed' }]);
        await places.release(slot, 'ord_renewed');
        expect(await places.lapsed(slot, end, t3)).to.deep.equal([]);
        expect((await places.taken(slot, end)).get(slot.getTime())).to.equal(1);
      });
    });
  });
}
