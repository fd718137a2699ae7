/**
 * Pickup or delivery, now or later (DECISIONS "Fulfilment") through the use cases on the memory
 * adapters: slots, lead times, horizon, closed and paused stores, zones, fees, minimums, tips, the
 * Idempotency-Key fingerprint, the kitchen's queue and erasure. The store is open 11:00–22:00 UTC
 * every day; the clock starts on Wednesday 2025-01-15 at 12:00 UTC.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { DeliveryZones, DomainError, OpeningHours, StorefrontOptions } from '@storefront/domain';
import type { DeliveryZone, FulfilmentInput } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aWorld, withMenu } from './world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Open 11:00–22:00 UTC every day: a pure port, no parser needed. */
const lunchAndDinner: OpeningHours = {
  schedule: 'Mo-Su 11:00-22:00',
  timeZone: 'UTC',
  isOpen: (at) => at.getUTCHours() >= 11 && at.getUTCHours() < 22,
  nextChange: (at) => {
    const day = Math.floor(at.getTime() / DAY) * DAY;
    for (const t of [day + 11 * HOUR, day + 22 * HOUR, day + DAY + 11 * HOUR]) if (t > at.getTime()) return new Date(t);
    return null;
  },
  offsetAt: () => 0,
};

/** Two overlapping boxes around (52.52, 13.41): Centre (fee 250, minimum 1500) inside Outer (fee 450, minimum 500). */
const zones: DeliveryZones = {
  lookup: (lat, lng) => {
    const found: DeliveryZone[] = [];
    if (Math.abs(lat - 52.52) <= 0.02 && Math.abs(lng - 13.41) <= 0.02) found.push({ name: 'Centre', fee: 250, minimumOrder: 1500 });
    if (Math.abs(lat - 52.52) <= 0.05 && Math.abs(lng - 13.41) <= 0.05) found.push({ name: 'Outer', fee: 450, minimumOrder: 500 });
    return found;
  },
};

const ADDRESS = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.52, lng: 13.41 };

async function aStore(options: StorefrontOptions = {}, withZones = true) {
  const world = aWorld({ openingHours: lunchAndDinner, ...options }, withZones ? { deliveryZones: zones } : {});
  const menu = await withMenu(world);
  const customerId = 'cus_fulfilment';
  const place = (fulfilment?: FulfilmentInput, extra: { tip?: unknown; quantity?: number; idempotencyKey?: string } = {}) =>
    world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: menu.pizza.productId, quantity: extra.quantity ?? 1 }],
      fulfilment,
      tip: extra.tip,
      idempotencyKey: extra.idempotencyKey,
    });
  const at = (iso: string) => ({ type: 'pickup', time: iso });
  const orders = async () => (await world.adapters.orders.listByCustomer(customerId, { page: 1, limit: 100 })).items;
  return { world, ...menu, place, at, orders, customerId };
}

const detailOf = (error: unknown) => (error as DomainError).details?.[0];

describe('Fulfilment', () => {
  describe('an order without fulfilment', () => {
    it('is pickup, promised for the first slot at least 20 minutes ahead, and costs its items', async () => {
      const s = await aStore();
      s.world.clock.advance(7 * MINUTE); // 12:07: the first slot starting at or after 12:27 is 12:30
      const { order } = await s.place();
      expect(order.fulfilment).to.deep.equal({ type: 'pickup', time: 'asap', promisedAt: new Date('2025-01-15T12:30:00Z') });
      expect(order).to.include({ subtotal: 1290, deliveryFee: 0, tip: 0, amount: 1290 });
    });

    it('adds a tip to the amount', async () => {
      const s = await aStore();
      const { order } = await s.place(undefined, { tip: 200 });
      expect(order).to.include({ subtotal: 1290, tip: 200, amount: 1490 });
    });

    it('refuses a tip that is not an integer from 0 to 100000, creating nothing', async () => {
      const s = await aStore();
      for (const tip of [-1, 100_001, 1.5, '200']) {
        const error = await expectDomainError(s.place(undefined, { tip }), 'validation_failed');
        expect(detailOf(error)?.path).to.equal('tip');
      }
      expect(await s.orders()).to.deep.equal([]);
    });
  });

  describe('a chosen time', () => {
    it('is promised for the start of the slot that contains it', async () => {
      const s = await aStore();
      const { order } = await s.place(s.at('2025-01-15T14:37:30+00:00'));
      expect(order.fulfilment).to.deep.include({ time: '2025-01-15T14:37:30.000Z', promisedAt: new Date('2025-01-15T14:30:00Z') });
    });

    it('reads the offset it is written with', async () => {
      const s = await aStore();
      const { order } = await s.place(s.at('2025-01-15T15:45:00+01:00'));
      expect(order.fulfilment.promisedAt).to.deep.equal(new Date('2025-01-15T14:45:00Z'));
    });

    it('is refused too soon, inside the lead time', async () => {
      const s = await aStore();
      const error = await expectDomainError(s.place(s.at('2025-01-15T12:15:00Z')), 'slot_unavailable');
      expect(detailOf(error)).to.include({ path: 'fulfilment.time' });
      expect(detailOf(error)?.message).to.match(/too soon/);
      // 12:29 is in the 12:15 slot, which starts inside the lead time; 12:30 is the first slot offered.
      await expectDomainError(s.place(s.at('2025-01-15T12:29:00Z')), 'slot_unavailable');
      await s.place(s.at('2025-01-15T12:30:00Z'));
    });

    it('is refused while the store is closed at the slot start, and at closing time itself', async () => {
      const s = await aStore();
      expect(detailOf(await expectDomainError(s.place(s.at('2025-01-16T08:00:00Z')), 'slot_unavailable'))?.message).to.match(/closed/);
      await expectDomainError(s.place(s.at('2025-01-15T22:00:00Z')), 'slot_unavailable');
      // The last slot starts 21:45, while open, and is offered.
      expect((await s.place(s.at('2025-01-15T21:59:00Z'))).order.fulfilment.promisedAt).to.deep.equal(new Date('2025-01-15T21:45:00Z'));
    });

    it('is refused beyond the horizon of 7 days', async () => {
      const s = await aStore();
      await s.place(s.at('2025-01-22T12:00:00Z'));
      expect(detailOf(await expectDomainError(s.place(s.at('2025-01-22T12:15:00Z')), 'slot_unavailable'))?.message).to.match(/too far/);
    });

    it('is refused as too far or too soon at the ends of the calendar, without failing', async () => {
      const s = await aStore();
      expect(detailOf(await expectDomainError(s.place(s.at('9999-12-31T23:00:00-23:59')), 'slot_unavailable'))?.message).to.match(/too far/);
      expect(detailOf(await expectDomainError(s.place(s.at('0001-01-01T00:00:00+23:59')), 'slot_unavailable'))?.message).to.match(/too soon/);
    });

    it('is refused when not RFC 3339 with an offset', async () => {
      const s = await aStore();
      for (const time of ['2025-01-15 14:00', '2025-01-15T14:00:00', 'tomorrow', 1_736_950_000, '2025-02-30T14:00:00Z', '2025-01-15T24:00:00Z']) {
        expect(detailOf(await expectDomainError(s.place({ type: 'pickup', time }), 'validation_failed'))?.path).to.equal('fulfilment.time');
      }
    });
  });

  describe('a closed or paused store', () => {
    it('refuses an order for now while closed, and takes one for a later offered slot', async () => {
      const s = await aStore();
      s.world.clock.advance(11 * HOUR); // 23:00, closed
      await expectDomainError(s.place(), 'store_closed');
      const { order } = await s.place(s.at('2025-01-16T11:30:00Z'));
      expect(order.fulfilment.promisedAt).to.deep.equal(new Date('2025-01-16T11:30:00Z'));
    });

    it('refuses an order for now while paused, and takes one for later', async () => {
      const s = await aStore();
      await s.world.storefront.setAcceptingOrders.execute({ acceptingOrders: false });
      await expectDomainError(s.place(), 'store_closed');
      await s.place(s.at('2025-01-15T18:00:00Z'));
    });

    it('promises an order for now near closing time for the next offered slot', async () => {
      const s = await aStore();
      s.world.clock.advance(9 * HOUR + 50 * MINUTE); // 21:50: 22:10 is closed, the next offered slot is tomorrow 11:00
      const { order } = await s.place();
      expect(order.fulfilment.promisedAt).to.deep.equal(new Date('2025-01-16T11:00:00Z'));
    });
  });

  describe('delivery', () => {
    it('charges the zone fee, keeps the address, and waits the delivery lead time', async () => {
      const s = await aStore();
      const { order } = await s.place({ type: 'delivery', address: { ...ADDRESS, lat: 52.56 } }, { tip: 100 });
      expect(order).to.include({ subtotal: 1290, deliveryFee: 450, tip: 100, amount: 1840 });
      expect(order.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: new Date('2025-01-15T12:45:00Z'), address: { ...ADDRESS, lat: 52.56 }, zone: 'Outer' });
    });

    it('charges the lowest fee of the zones that contain the address', async () => {
      const s = await aStore();
      const { order } = await s.place({ type: 'delivery', address: ADDRESS }, { quantity: 2 });
      expect(order).to.include({ deliveryFee: 250, amount: 2580 + 250 });
      expect(order.fulfilment.zone).to.equal('Centre');
    });

    it('refuses items below the zone minimum, naming the minimum', async () => {
      const s = await aStore();
      const error = await expectDomainError(s.place({ type: 'delivery', address: ADDRESS }), 'below_minimum_order');
      expect(detailOf(error)).to.include({ path: 'items', minimumOrder: 1500 });
      expect(await s.orders()).to.deep.equal([]);
    });

    it('refuses an address outside every zone', async () => {
      const s = await aStore();
      await expectDomainError(s.place({ type: 'delivery', address: { ...ADDRESS, lat: 48.1 } }), 'outside_delivery_area');
    });

    it('is unavailable when the store has no zones', async () => {
      const s = await aStore({}, false);
      await expectDomainError(s.place({ type: 'delivery', address: ADDRESS }), 'delivery_unavailable');
      expect(() => s.world.storefront.quoteDelivery.execute({ lat: 52.52, lng: 13.41 })).to.throw().with.property('code', 'delivery_unavailable');
    });

    it('requires an address, and refuses one for pickup', async () => {
      const s = await aStore();
      expect(detailOf(await expectDomainError(s.place({ type: 'delivery' }), 'validation_failed'))?.path).to.equal('fulfilment.address');
      expect(detailOf(await expectDomainError(s.place({ type: 'pickup', address: ADDRESS }), 'validation_failed'))?.path).to.equal('fulfilment.address');
      const error = (await expectDomainError(s.place({ type: 'delivery', address: { ...ADDRESS, line1: '', postalCode: 'x'.repeat(21), lat: 91 } }), 'validation_failed')) as DomainError;
      expect(error.details?.map((d) => d.path)).to.deep.equal(['fulfilment.address.line1', 'fulfilment.address.postalCode', 'fulfilment.address.lat']);
    });

    it('quotes the zone, fee and minimum of a point', async () => {
      const s = await aStore();
      expect(s.world.storefront.quoteDelivery.execute({ lat: 52.52, lng: 13.41 })).to.deep.equal({ name: 'Centre', fee: 250, minimumOrder: 1500 });
      expect(() => s.world.storefront.quoteDelivery.execute({ lat: 0, lng: 0 })).to.throw().with.property('code', 'outside_delivery_area');
      expect(() => s.world.storefront.quoteDelivery.execute({ lat: 95, lng: 0 })).to.throw().with.property('code', 'validation_failed');
    });
  });

  describe('the Idempotency-Key fingerprint', () => {
    it('replays the same fulfilment and tip, and refuses another time, type or tip as another body', async () => {
      const s = await aStore();
      const later = s.at('2025-01-15T18:00:00Z');
      const first = await s.place(later, { tip: 100, idempotencyKey: 'k1' });
      expect((await s.place(later, { tip: 100, idempotencyKey: 'k1' })).replayed).to.equal(true);
      await expectDomainError(s.place(s.at('2025-01-15T18:15:00Z'), { tip: 100, idempotencyKey: 'k1' }), 'idempotency_key_reused');
      await expectDomainError(s.place(later, { tip: 200, idempotencyKey: 'k1' }), 'idempotency_key_reused');
      await expectDomainError(s.place({ type: 'delivery', time: '2025-01-15T18:00:00Z', address: ADDRESS }, { tip: 100, idempotencyKey: 'k1' }), 'idempotency_key_reused');
      expect(await s.orders()).to.deep.equal([first.order]);
    });

    it('treats no fulfilment as pickup as soon as possible without a tip', async () => {
      const s = await aStore();
      await s.place(undefined, { idempotencyKey: 'k2' });
      expect((await s.place({ type: 'pickup', time: 'asap' }, { tip: 0, idempotencyKey: 'k2' })).replayed).to.equal(true);
    });
  });

  describe('the kitchen queue', () => {
    it('lists orders by promised time, then placement: tomorrow\'s pre-order waits behind a later order for now', async () => {
      const s = await aStore();
      const tomorrow = (await s.place(s.at('2025-01-16T12:00:00Z'))).order;
      s.world.clock.advance(MINUTE);
      const now1 = (await s.place()).order;
      s.world.clock.advance(MINUTE);
      const now2 = (await s.place()).order;
      const page = await s.world.storefront.listKitchenOrders.execute({});
      expect(page.items.map((o) => o.orderId)).to.deep.equal([now1.orderId, now2.orderId, tomorrow.orderId]);
    });
  });

  describe('slots of a day', () => {
    it('lists the offered pickup slots of today: after the lead time, while open', async () => {
      const s = await aStore();
      const list = await s.world.storefront.listSlots.execute({});
      expect(list).to.include({ date: '2025-01-15', timeZone: 'UTC', slotMinutes: 15 });
      expect(list.slots[0]).to.deep.equal({ start: new Date('2025-01-15T12:30:00Z'), end: new Date('2025-01-15T12:45:00Z'), remaining: null });
      expect(list.slots.at(-1)?.start).to.deep.equal(new Date('2025-01-15T21:45:00Z'));
      expect(list.slots).to.have.length(38);
    });

    it('starts delivery slots after the delivery lead time', async () => {
      const s = await aStore();
      const list = await s.world.storefront.listSlots.execute({ type: 'delivery' });
      expect(list.slots[0]?.start).to.deep.equal(new Date('2025-01-15T12:45:00Z'));
    });

    it('shows the places left, and leaves full slots out', async () => {
      const s = await aStore({ fulfilment: { capacity: 2 } });
      await s.place(s.at('2025-01-16T12:00:00Z'));
      await s.place(s.at('2025-01-16T12:00:00Z'));
      await s.place(s.at('2025-01-16T12:15:00Z'));
      const { slots } = await s.world.storefront.listSlots.execute({ date: '2025-01-16' });
      expect(slots.find((slot) => slot.start.getTime() === Date.parse('2025-01-16T12:00:00Z'))).to.equal(undefined);
      expect(slots.find((slot) => slot.start.getTime() === Date.parse('2025-01-16T12:15:00Z'))?.remaining).to.equal(1);
      expect(slots[0]?.remaining).to.equal(2);
    });

    it('has none on a day past the horizon or gone, and refuses a date that is not one', async () => {
      const s = await aStore();
      expect((await s.world.storefront.listSlots.execute({ date: '2025-01-23' })).slots).to.deep.equal([]);
      expect((await s.world.storefront.listSlots.execute({ date: '2025-01-14' })).slots).to.deep.equal([]);
      expect((await s.world.storefront.listSlots.execute({ date: '9999-12-31' })).slots).to.deep.equal([]);
      expect((await s.world.storefront.listSlots.execute({ date: '0001-01-01' })).slots).to.deep.equal([]);
      await expectDomainError(s.world.storefront.listSlots.execute({ date: '2025-02-30' }), 'validation_failed');
      await expectDomainError(s.world.storefront.listSlots.execute({ type: 'drone' }), 'validation_failed');
    });
  });

  describe('erasing an account', () => {
    it('removes the delivery addresses from its orders, keeping zone and fee', async () => {
      const s = await aStore();
      const email = 'erin@example.com';
      const password = 'erin-password';
      const profile = await s.world.storefront.registerCustomer.execute({ email, name: 'Erin', password });
      const other = await s.world.storefront.placeOrder.execute({ customerId: 'cus_other', items: [{ productId: s.pizza.productId, quantity: 2 }], fulfilment: { type: 'delivery', address: ADDRESS } });
      const { order } = await s.world.storefront.placeOrder.execute({ customerId: profile.customerId, items: [{ productId: s.pizza.productId, quantity: 2 }], fulfilment: { type: 'delivery', address: ADDRESS } });
      const caller = await s.world.storefront.authenticate.execute((await s.world.storefront.login.execute({ email, password, client: '203.0.113.9' })).accessToken);
      await s.world.storefront.eraseAccount.execute({ caller, password, client: '203.0.113.9' });
      const after = await s.world.adapters.orders.findById(order.orderId);
      expect(after?.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: order.fulfilment.promisedAt, zone: 'Centre' });
      expect(after).to.include({ deliveryFee: 250, amount: order.amount });
      expect((await s.world.adapters.orders.findById(other.order.orderId))?.fulfilment.address).to.deep.equal(ADDRESS);
    });
  });
});
