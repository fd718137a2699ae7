/**
 * Review of card payments (branch `review`): races and faults where money or orders go wrong.
 * Each test states an invariant of DECISIONS "Payments" and drives one interleaving that breaks it.
 * The gates hold a provider call after the provider acted and before its answer is returned, so
 * another request can run in between, as it can in production.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order } from '@storefront/domain';
import type { PaymentIntentOutcome } from '@storefront/domain/adapter-kit';
import type { StorefrontOptions } from '@storefront/domain';
import { InMemoryPaymentGateway } from '../../src/index.js';
import { aWorld, withMenu, type World } from './world.js';

const MINUTE = 60_000;

/** Holds a call after it ran: `reached` once it ran, `open()` lets its answer go back. */
function gate() {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { reached, open: () => release(), pass: async () => (arrive(), opened) };
}

/** Wraps `gateway[method]` so that its first call matching `when` is held after the provider acted. */
function holdAfter<K extends 'capture' | 'cancel' | 'refund' | 'read'>(
  gateway: InMemoryPaymentGateway,
  method: K,
  when: (request: Parameters<InMemoryPaymentGateway[K]>[0]) => boolean = () => true,
) {
  const g = gate();
  const inner = (gateway[method] as (r: unknown) => Promise<unknown>).bind(gateway);
  let used = false;
  (gateway as unknown as Record<string, unknown>)[method] = async (request: never) => {
    const answer = await inner(request);
    if (!used && when(request)) {
      used = true;
      await g.pass();
    }
    return answer;
  };
  return g;
}

async function aPayingStore(options: { windowMs?: number; store?: StorefrontOptions } = {}) {
  let clockOf: () => Date = () => new Date();
  const gateway = new InMemoryPaymentGateway({ clock: { now: () => clockOf() } });
  const world: World = aWorld({ payments: { windowMs: options.windowMs ?? 15 * MINUTE }, ...options.store }, () => ({ paymentGateway: gateway }));
  const adapters = world.adapters;
  clockOf = () => world.clock.now();
  const { soup } = await withMenu(world);
  const owner = await world.storefront.registerCustomer.execute({ email: 'paula@example.com', name: 'Paula', password: 'paula-password' });
  const storefront = world.storefront;
  let events = 0;
  const place = async (): Promise<Order> =>
    (await storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 2 }] })).order;
  const tellNews = async (news: PaymentIntentOutcome) => storefront.takeProviderEvent!.execute({ eventId: `evt_${++events}`, news: { intent: news } });
  const tell = async (order: Order) => tellNews(await gateway.read(order.payment!.intentId));
  const pay = async (order: Order, card = 'pm_card_visa'): Promise<PaymentIntentOutcome> => gateway.confirm(order.payment!.intentId, card);
  const find = async (order: Order): Promise<Order> => (await adapters.orders.findById(order.orderId))!;
  const kitchenIds = async (): Promise<string[]> => (await storefront.listKitchenOrders.execute({})).items.map((o) => o.orderId);
  const paidOrder = async (): Promise<Order> => {
    const order = await place();
    await pay(order);
    await tell(order);
    return find(order);
  };
  const intentOf = async (order: Order) => (await gateway.read(order.payment!.intentId)) as PaymentIntentOutcome & { amountRefunded?: number; amountCaptured?: number };
  return { world, adapters, storefront, gateway, owner, place, tell, tellNews, pay, find, kitchenIds, paidOrder, intentOf };
}

// KNOWN FAILURES, skipped so that CI stays green while issue 35 stays open: each test below fails
// on main today and reproduces a bug found by review (docs/payments-review.md). Whoever fixes one
// moves it out of this skipped block (and into the e2e suites in memory and PostgreSQL mode).
describe.skip('Payments review: races and faults (known failures, issue 35 open)', () => {
  it('accept racing a rejection: an order the kitchen accepted must not have its whole capture refunded', async () => {
    const { paidOrder, storefront, gateway, find, intentOf } = await aPayingStore();
    const order = await paidOrder();
    // Staff A accepts: the capture reaches the provider, its answer is slow to come back.
    const captured = holdAfter(gateway, 'capture');
    const accepting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    await captured.reached;
    // Staff B rejects on another screen meanwhile: the void is refused (captured), so B refunds it all.
    const refunded = holdAfter(gateway, 'refund');
    const rejecting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'out of dough' });
    await refunded.reached;
    // A's answer comes back first and A's move is stored; B's loses the compare-and-set.
    captured.open();
    const accepted = await accepting;
    refunded.open();
    await rejecting.catch(() => undefined);

    expect(accepted.status).to.equal('accepted');
    const now = await find(order);
    const intent = await intentOf(order);
    // The kitchen cooks this order: the money it captured must still be there, and the order's books must match the provider's.
    expect({ status: now.status, refundedAtProvider: intent.amountRefunded }).to.deep.equal({ status: 'accepted', refundedAtProvider: 0 });
  });

  it("owner's cancellation racing the kitchen's acceptance: an accepted order must not be refunded in full behind the order's back", async () => {
    const { paidOrder, storefront, gateway, find, intentOf, owner } = await aPayingStore();
    const order = await paidOrder();
    const captured = holdAfter(gateway, 'capture');
    const accepting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    await captured.reached;
    const refunded = holdAfter(gateway, 'refund');
    const cancelling = storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    await refunded.reached;
    captured.open();
    await accepting;
    refunded.open();
    const error = await cancelling.then(
      () => null,
      (e: unknown) => e,
    );

    const now = await find(order);
    const intent = await intentOf(order);
    expect(error, 'the owner is told the cancel failed').to.not.equal(null);
    expect(now.status).to.equal('accepted');
    expect(intent.amountRefunded, 'refunded at the provider, yet the order is accepted and shows nothing refunded').to.equal(now.payment!.amountRefunded);
  });

  it("a staff cancellation after capture racing a staff refund: the provider's refunds must match the order's books", async () => {
    const { paidOrder, storefront, gateway, find, intentOf } = await aPayingStore();
    const paid = await paidOrder();
    await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
    // The cancellation's whole refund reaches the provider; its answer is slow to come back.
    const cancelRefund = holdAfter(gateway, 'refund', (request) => request.idempotencyKey.includes('_cancel'));
    const cancelling = storefront.moveOrder.execute({ orderId: paid.orderId, status: 'cancelled', reason: 'oven broke' });
    await cancelRefund.reached;
    // Another screen refunds 100 for a cold soup meanwhile: recorded first (a new version), then refused by the provider.
    const partial = await storefront.refundOrder.execute({ orderId: paid.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'cold' });
    cancelRefund.open();
    const error = await cancelling.then(
      () => null,
      (e: unknown) => e,
    );

    const now = await find(paid);
    const intent = await intentOf(paid);
    expect(partial.refund.status).to.equal('failed');
    expect(error, 'the cancellation lost its compare-and-set').to.not.equal(null);
    // The customer got everything back, yet the order is still accepted (the kitchen cooks it) and shows nothing refunded.
    expect({ status: now.status, amountRefunded: now.payment!.amountRefunded }).to.deep.equal({ status: 'cancelled', amountRefunded: intent.amountRefunded });
  });

  it("the owner's cancel of an awaiting order racing the 'authorized' event: an order whose intent was cancelled must not reach the kitchen", async () => {
    const { place, pay, storefront, gateway, find, kitchenIds, tellNews, owner } = await aPayingStore();
    const order = await place();
    // The customer pays; Stripe sends payment_intent.amount_capturable_updated.
    const authorizedNews = await pay(order);
    // The customer cancels meanwhile: our cancel reaches the provider, its answer is slow.
    const voided = holdAfter(gateway, 'cancel');
    const cancelling = storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    await voided.reached;
    expect(await tellNews(authorizedNews)).to.equal('applied');
    voided.open();
    await cancelling.catch(() => undefined);

    const now = await find(order);
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expect(await kitchenIds(), `the order is ${now.status} with a cancelled intent: unpaid, yet in the kitchen`).not.to.include(order.orderId);
  });

  it("the sweeper expiring a window racing the 'authorized' event: an order whose intent the sweeper cancelled must not reach the kitchen", async () => {
    const { place, pay, storefront, gateway, find, kitchenIds, tellNews, world } = await aPayingStore({ windowMs: 5 * MINUTE });
    const order = await place();
    world.clock.advance(5 * MINUTE);
    // The sweeper reads the intent (still unpaid) past the window...
    const read = holdAfter(gateway, 'read');
    const sweeping = storefront.paymentSweeper!.sweep();
    await read.reached;
    // ...the customer pays at the last moment, and the event places the order...
    const authorizedNews = await pay(order);
    expect(await tellNews(authorizedNews)).to.equal('applied');
    // ...then the sweeper cancels the intent (Stripe lets a requires_capture intent be cancelled).
    read.open();
    await sweeping;

    const now = await find(order);
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expect(await kitchenIds(), `the order is ${now.status} (payment ${now.payment!.status}) with a cancelled intent`).not.to.include(order.orderId);
  });
});

describe('Payments review: fixed', () => {
  it("the owner's cancel after the sweeper's expiry cancel lost its answer: the void goes under a key of its own, and finds the intent cancelled", async () => {
    const { place, storefront, gateway, find, world, owner } = await aPayingStore({ windowMs: 5 * MINUTE });
    const order = await place();
    world.clock.advance(5 * MINUTE);
    // The sweeper cancels the unpaid intent past its window (reason `abandoned`); the provider acts, its answer is lost.
    const inner = gateway.cancel.bind(gateway);
    let lose = true;
    gateway.cancel = async (request) => {
      const answer = await inner(request);
      if (lose) {
        lose = false;
        throw Object.assign(new Error('socket hang up'), { code: 'payment_provider_unavailable' });
      }
      return answer;
    };
    await storefront.paymentSweeper!.sweep().catch(() => undefined);
    expect((await find(order)).status).to.equal('awaiting_payment');
    // The customer cancels before the next sweep: the void (`requested_by_customer`) must not reuse the expiry's key.
    const error = await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, `the owner's cancel failed: ${String((error as Error | null)?.message)}`).to.equal(null);
    expect((await find(order)).status).to.equal('cancelled');
  });
});
