/**
 * The kitchen side through the use cases, on the real memory adapters: an order's lifecycle as its
 * owner and the staff see it, the kitchen's queue, and the store controls (pause, opening hours,
 * 86 an item, roles).
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { OpeningHours, Order } from '@storefront/domain';
import { isDomainError } from '@storefront/domain';
import { expectDomainError } from '@storefront/testing';
import { aWorld, withMenu, type World } from './world.js';

const MINUTE = 60_000;

/** An owner, another customer and a staff account; the owner's order of one soup. */
async function aKitchen(world: World = aWorld()) {
  const { soup, pizza, cake } = await withMenu(world);
  const owner = await world.storefront.registerCustomer.execute({ email: 'olga@example.com', name: 'Olga', password: 'olga-password' });
  const other = await world.storefront.registerCustomer.execute({ email: 'oscar@example.com', name: 'Oscar', password: 'oscar-password' });
  const staff = await world.storefront.registerCustomer.execute({ email: 'sam@example.com', name: 'Sam', password: 'sam-password', role: 'staff' });
  const place = async (): Promise<Order> =>
    (await world.storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 1 }] })).order;
  const order = await place();
  return {
    world,
    storefront: world.storefront,
    soup,
    pizza,
    cake,
    order,
    place,
    asOwner: { customerId: owner.customerId, role: 'customer' as const },
    asOther: { customerId: other.customerId, role: 'customer' as const },
    asStaff: { customerId: staff.customerId, role: 'staff' as const },
  };
}

/** A schedule that is always closed, opening at a fixed instant: a pure port, no parser needed. */
function closedUntil(opens: Date): OpeningHours {
  return { schedule: 'Mo-Su 11:00-22:00', timeZone: 'Europe/Berlin', isOpen: () => false, nextChange: () => opens, offsetAt: () => 3_600_000 };
}

describe('Kitchen', () => {
  describe('an order through its lifecycle', () => {
    it('walks placed → accepted → preparing → ready → completed, each step in the history', async () => {
      const { world, storefront, order, asOwner } = await aKitchen();
      const placedAt = order.createdAt.getTime();
      expect(order).to.deep.include({ status: 'placed', version: 1 });
      for (const status of ['accepted', 'preparing', 'ready', 'completed'] as const) {
        world.clock.advance(MINUTE);
        const moved = await storefront.moveOrder.execute({ orderId: order.orderId, status });
        expect(moved).to.deep.include({ status, updatedAt: world.clock.now() });
      }
      const seen = await storefront.getOrder.execute({ viewer: asOwner, orderId: order.orderId });
      expect(seen).to.deep.include({ status: 'completed', version: 5 });
      expect(seen.statusHistory.map((change) => [change.status, change.at.getTime() - placedAt])).to.deep.equal([
        ['placed', 0], ['accepted', MINUTE], ['preparing', 2 * MINUTE], ['ready', 3 * MINUTE], ['completed', 4 * MINUTE],
      ]);
      expect((await storefront.listOrders.execute({ customerId: asOwner.customerId })).items).to.deep.equal([seen]);
    });

    it('refuses a move the table does not have with invalid_transition naming the current status', async () => {
      const { storefront, order } = await aKitchen();
      const error = await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'ready' }), 'invalid_transition');
      expect((error as Error).message).to.contain('placed');
    });

    it('refuses an unknown status with validation_failed and an unknown order with not_found', async () => {
      const { storefront, order } = await aKitchen();
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'cooking' }), 'validation_failed');
      await expectDomainError(storefront.moveOrder.execute({ orderId: 'ord_nope', status: 'accepted' }), 'not_found');
    });
  });

  describe('the owner', () => {
    it('cancels an order not yet accepted, and a second cancel answers the same cancelled order', async () => {
      const { world, storefront, order, asOwner } = await aKitchen();
      world.clock.advance(MINUTE);
      const cancelled = await storefront.cancelOrder.execute({ customerId: asOwner.customerId, orderId: order.orderId });
      expect(cancelled).to.deep.include({ status: 'cancelled', version: 2 });
      expect(cancelled).to.not.have.property('reason');
      world.clock.advance(MINUTE);
      expect(await storefront.cancelOrder.execute({ customerId: asOwner.customerId, orderId: order.orderId })).to.deep.equal(cancelled);
      expect(await storefront.getOrder.execute({ viewer: asOwner, orderId: order.orderId })).to.deep.equal(cancelled);
    });

    it('cannot cancel once the kitchen has accepted the order: invalid_transition, and the order stays accepted', async () => {
      const { storefront, order, asOwner } = await aKitchen();
      const accepted = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      const error = await expectDomainError(storefront.cancelOrder.execute({ customerId: asOwner.customerId, orderId: order.orderId }), 'invalid_transition');
      expect((error as Error).message).to.contain('accepted');
      expect(await storefront.getOrder.execute({ viewer: asOwner, orderId: order.orderId })).to.deep.equal(accepted);
    });
  });

  describe("another customer's order", () => {
    it('does not exist for another customer (not_found for reading and cancelling), but the staff see it', async () => {
      const { storefront, order, asOther, asStaff } = await aKitchen();
      await expectDomainError(storefront.getOrder.execute({ viewer: asOther, orderId: order.orderId }), 'not_found');
      await expectDomainError(storefront.cancelOrder.execute({ customerId: asOther.customerId, orderId: order.orderId }), 'not_found');
      expect(await storefront.getOrder.execute({ viewer: asStaff, orderId: order.orderId })).to.deep.equal(order);
      await expectDomainError(storefront.getOrder.execute({ viewer: asStaff, orderId: 'ord_nope' }), 'not_found');
    });
  });

  describe('staff moves', () => {
    it('refuses a rejection without a reason (or with one over 200 characters) and stores the reason given', async () => {
      const { storefront, order, asOwner } = await aKitchen();
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected' }), 'validation_failed');
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'x'.repeat(201) }), 'validation_failed');
      expect((await storefront.getOrder.execute({ viewer: asOwner, orderId: order.orderId })).status).to.equal('placed');
      const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: '  Out of dough  ' });
      expect(rejected).to.deep.include({ status: 'rejected', reason: 'Out of dough', version: 2 });
      expect((await storefront.getOrder.execute({ viewer: asOwner, orderId: order.orderId })).reason).to.equal('Out of dough');
    });

    it('refuses a move whose expected version has moved on with precondition_failed', async () => {
      const { storefront, order } = await aKitchen();
      const accepted = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted', expectedVersion: 1 });
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'preparing', expectedVersion: 1 }), 'precondition_failed');
      expect(await storefront.getOrder.execute({ viewer: { customerId: order.customerId, role: 'customer' }, orderId: order.orderId })).to.deep.equal(accepted);
      const preparing = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'preparing', expectedVersion: 2 });
      expect(preparing.version).to.equal(3);
    });

    it('lets exactly one of two screens moving one order at once win; the other gets invalid_transition', async () => {
      const { storefront, order, asStaff } = await aKitchen();
      const results = await Promise.allSettled([
        storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }),
        storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).to.have.length(1);
      expect(lost).to.have.length(1);
      expect(isDomainError(lost[0]!.reason, 'invalid_transition'), String(lost[0]!.reason)).to.equal(true);
      const stored = await storefront.getOrder.execute({ viewer: asStaff, orderId: order.orderId });
      expect(stored).to.deep.include({ status: 'accepted', version: 2 });
      expect(stored.statusHistory).to.have.length(2);
    });

    it('answers the loser with precondition_failed when both screens sent the version they saw', async () => {
      const { storefront, order, asStaff } = await aKitchen();
      const results = await Promise.allSettled([
        storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted', expectedVersion: 1 }),
        storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'Too busy', expectedVersion: 1 }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(isDomainError(lost?.reason, 'precondition_failed'), String(lost?.reason)).to.equal(true);
      expect((await storefront.getOrder.execute({ viewer: asStaff, orderId: order.orderId })).version).to.equal(2);
    });
  });

  describe("the kitchen's queue", () => {
    it('lists the open orders of every customer by default, oldest first, and filters on the statuses asked for', async () => {
      const { world, storefront, order, place } = await aKitchen();
      world.clock.advance(MINUTE);
      const second = await place();
      world.clock.advance(MINUTE);
      const third = await place();
      world.clock.advance(MINUTE);
      const fourth = await place();
      const accepted = await storefront.moveOrder.execute({ orderId: second.orderId, status: 'accepted' });
      const cancelled = await storefront.moveOrder.execute({ orderId: third.orderId, status: 'cancelled', reason: 'Closing early' });
      const open = await storefront.listKitchenOrders.execute({});
      expect(open.items).to.deep.equal([order, accepted, fourth]);
      expect(open).to.include({ total: 3, page: 1, perPage: 20, nextPage: null });
      expect((await storefront.listKitchenOrders.execute({ status: 'cancelled' })).items).to.deep.equal([cancelled]);
      expect((await storefront.listKitchenOrders.execute({ status: 'accepted, cancelled' })).items).to.deep.equal([accepted, cancelled]);
      const paged = await storefront.listKitchenOrders.execute({ page: 2, limit: 1 });
      expect(paged).to.deep.equal({ items: [accepted], total: 3, page: 2, perPage: 1, nextPage: 3 });
    });

    it('refuses an unknown status with validation_failed', async () => {
      const { storefront } = await aKitchen();
      // execute validates before it returns its promise (as listOrders does): it throws, not rejects.
      const list = (input: { status?: string; limit?: number }) => Promise.resolve().then(() => storefront.listKitchenOrders.execute(input));
      await expectDomainError(list({ status: 'placed,cooking' }), 'validation_failed');
      await expectDomainError(list({ limit: 0 }), 'validation_failed');
    });
  });

  describe('pausing the store', () => {
    it('refuses new orders with store_closed and creates nothing, until ordering resumes', async () => {
      const { storefront, soup, asOwner } = await aKitchen();
      const paused = await storefront.setAcceptingOrders.execute({ acceptingOrders: false });
      expect(paused).to.include({ acceptingOrders: false, openNow: true });
      const items = [{ productId: soup.productId, quantity: 2 }];
      await expectDomainError(storefront.placeOrder.execute({ customerId: asOwner.customerId, items }), 'store_closed');
      await expectDomainError(storefront.placeOrder.execute({ customerId: asOwner.customerId, items, idempotencyKey: 'during-pause' }), 'store_closed');
      expect((await storefront.listOrders.execute({ customerId: asOwner.customerId })).total).to.equal(1);
      expect((await storefront.getStoreStatus.execute()).acceptingOrders).to.equal(false);

      await storefront.setAcceptingOrders.execute({ acceptingOrders: true });
      // The key refused during the pause was not left held: the same request now goes through.
      const placed = await storefront.placeOrder.execute({ customerId: asOwner.customerId, items, idempotencyKey: 'during-pause' });
      expect(placed.replayed).to.equal(false);
      expect((await storefront.listOrders.execute({ customerId: asOwner.customerId })).total).to.equal(2);
    });

    it('still replays an order placed under an Idempotency-Key before the pause', async () => {
      const { storefront, soup, asOwner } = await aKitchen();
      const input = { customerId: asOwner.customerId, items: [{ productId: soup.productId, quantity: 1 }], idempotencyKey: 'before-pause' };
      const first = await storefront.placeOrder.execute(input);
      await storefront.setAcceptingOrders.execute({ acceptingOrders: false });
      expect(await storefront.placeOrder.execute(input)).to.deep.equal({ order: first.order, replayed: true });
    });

    it('refuses orders outside the opening hours with store_closed, and says when it opens', async () => {
      const opens = new Date(Date.UTC(2025, 0, 16, 10, 0, 0));
      const world = aWorld({ openingHours: closedUntil(opens), store: { name: 'Chez Test', currency: 'EUR' } });
      const { storefront, soup } = await withMenu(world).then((menu) => ({ storefront: world.storefront, ...menu }));
      const error = await expectDomainError(
        storefront.placeOrder.execute({ customerId: 'cus_x', items: [{ productId: soup.productId, quantity: 1 }] }),
        'store_closed',
      );
      expect((error as Error).message).to.contain(opens.toISOString());
      expect(await storefront.getStoreStatus.execute()).to.deep.equal({
        name: 'Chez Test', currency: 'EUR', pricesIncludeTax: false, timeZone: 'Europe/Berlin', openNow: false, acceptingOrders: true,
        openingHours: 'Mo-Su 11:00-22:00', nextChangeAt: opens,
      });
      expect((await world.adapters.orders.listByStatus(['placed'], { page: 1, limit: 1 })).total).to.equal(0);
    });
  });

  describe('86-ing an item', () => {
    it('shows the product unavailable in the menu and search at once and refuses it in orders, until it is back', async () => {
      const { storefront, soup, asOwner } = await aKitchen();
      const before = await storefront.listMenu.execute();
      const off = await storefront.setProductAvailability.execute({ productId: soup.productId, available: false });
      expect(off).to.deep.equal({ ...soup, available: false });
      const menu = await storefront.listMenu.execute();
      expect(menu.revision).to.not.equal(before.revision);
      expect(menu.byId.get(soup.productId)!.available).to.equal(false);
      expect((await storefront.searchMenu.execute({ q: 'tomato soup' })).items).to.deep.equal([off]);
      const items = [{ productId: soup.productId, quantity: 1 }];
      await expectDomainError(storefront.placeOrder.execute({ customerId: asOwner.customerId, items }), 'product_unavailable');
      await storefront.setProductAvailability.execute({ productId: soup.productId, available: true });
      expect((await storefront.placeOrder.execute({ customerId: asOwner.customerId, items })).order.status).to.equal('placed');
    });

    it('refuses an unknown product with not_found', async () => {
      const { storefront } = await aKitchen();
      await expectDomainError(storefront.setProductAvailability.execute({ productId: 'prd_nope', available: false }), 'not_found');
    });
  });

  describe('roles', () => {
    it("makes an account staff, and the account's next request sees the role", async () => {
      const world = aWorld();
      await world.storefront.registerCustomer.execute({ email: 'rita@example.com', name: 'Rita', password: 'rita-password' });
      const pair = await world.storefront.login.execute({ email: 'rita@example.com', password: 'rita-password', client: '203.0.113.7' });
      const me = () => world.storefront.authenticate.execute(pair.accessToken).then((caller) => world.storefront.getCurrentCustomer.execute(caller));
      expect((await me()).role).to.equal('customer');
      await world.storefront.setCustomerRole.execute({ email: ' Rita@Example.com ', role: 'staff' });
      expect((await me()).role).to.equal('staff');
      await world.storefront.setCustomerRole.execute({ email: 'rita@example.com', role: 'customer' });
      expect((await me()).role).to.equal('customer');
    });

    it('refuses an unknown email with not_found', async () => {
      const world = aWorld();
      await expectDomainError(world.storefront.setCustomerRole.execute({ email: 'nobody@example.com', role: 'staff' }), 'not_found');
    });
  });
});
