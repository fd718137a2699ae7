/**
 * Review of card payments: races and faults where money or orders went wrong (docs/payments-review.md).
 * Each test states an invariant of DECISIONS "Payments" and drives one interleaving that broke it.
 * The gates hold a provider call after the provider acted and before its answer is returned, so
 * another request can run in between, as it can in production.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '@storefront/domain';
import { expectDomainError } from '@storefront/testing';
import { aPayingStore, expectMoneyMatchesKitchen, holdAfter, loseAnswer, MINUTE } from './paying-store.js';

/**
 * An order past its payment window: the sweeper has read its intent (still unpaid) and is held
 * there; the customer pays at the last moment. The event is not told yet.
 */
async function paidWhileSweeping() {
  const store = await aPayingStore({ windowMs: 5 * MINUTE });
  const order = await store.place();
  store.world.clock.advance(5 * MINUTE);
  const read = holdAfter(store.gateway, 'read');
  const sweeping = store.storefront.paymentSweeper!.sweep();
  await read.reached;
  const authorizedNews = await store.pay(order);
  return { ...store, order, read, sweeping, authorizedNews };
}

// Found by review (docs/payments-review.md) and fixed by storing the kitchen's or customer's word
// first and moving the money after it: each test drives the interleaving that broke an invariant.
describe('Payments review: races and faults', () => {
  it('accept racing a rejection: the money follows whichever move was stored, never the loser', async () => {
    const { paidOrder, storefront, gateway, find, intentOf } = await aPayingStore();
    const order = await paidOrder();
    // Staff A accepts: the capture reaches the provider, its answer is slow to come back.
    const captured = holdAfter(gateway, 'capture');
    const accepting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    await captured.reached;
    // Staff B rejects on another screen meanwhile: stored first, then the void finds the capture and refunds it.
    const refunded = holdAfter(gateway, 'refund');
    const rejecting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'out of dough' });
    await refunded.reached;
    captured.open();
    const acceptError = await accepting.then(
      () => null,
      (e: unknown) => e,
    );
    refunded.open();
    const rejected = await rejecting;

    expect(isDomainError(acceptError) && acceptError.code, 'A is told the order was rejected').to.equal('invalid_transition');
    expect(rejected.status).to.equal('rejected');
    expectMoneyMatchesKitchen(await find(order), await intentOf(order));
  });

  it("owner's cancellation racing the kitchen's acceptance: the capture the acceptance made is given back with the cancel", async () => {
    const { paidOrder, storefront, gateway, find, intentOf, owner } = await aPayingStore();
    const order = await paidOrder();
    const captured = holdAfter(gateway, 'capture');
    const accepting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    await captured.reached;
    const refunded = holdAfter(gateway, 'refund');
    const cancelling = storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    await refunded.reached;
    captured.open();
    const acceptError = await accepting.then(
      () => null,
      (e: unknown) => e,
    );
    refunded.open();
    const cancelled = await cancelling;

    expect(isDomainError(acceptError) && acceptError.code).to.equal('invalid_transition');
    expect(cancelled.status).to.equal('cancelled');
    expectMoneyMatchesKitchen(await find(order), await intentOf(order));
  });

  it('an acceptance stored first: a cancel racing it is refused and moves no money', async () => {
    const { paidOrder, storefront, gateway, find, intentOf, owner } = await aPayingStore();
    const order = await paidOrder();
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    const refunds: unknown[] = [];
    const refund = gateway.refund.bind(gateway);
    gateway.refund = async (request) => (refunds.push(request), refund(request));
    await expectDomainError(storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId }), 'invalid_transition');
    await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'late' }), 'invalid_transition');
    expect(refunds).to.deep.equal([]);
    expectMoneyMatchesKitchen(await find(order), await intentOf(order));
  });

  it("a staff cancellation after capture racing a staff refund: the refund finds nothing left, the provider's refunds match the books", async () => {
    const { paidOrder, storefront, gateway, find, intentOf } = await aPayingStore();
    const paid = await paidOrder();
    await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
    // The cancellation's whole refund reaches the provider; its answer is slow to come back.
    const cancelRefund = holdAfter(gateway, 'refund', (request) => request.idempotencyKey.includes('_cancel'));
    const cancelling = storefront.moveOrder.execute({ orderId: paid.orderId, status: 'cancelled', reason: 'oven broke' });
    await cancelRefund.reached;
    // Another screen refunds 100 for a cold soup meanwhile: the cancellation reserved everything.
    await expectDomainError(storefront.refundOrder.execute({ orderId: paid.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'cold' }), 'refund_exceeds_captured');
    cancelRefund.open();
    const cancelled = await cancelling;

    expect(cancelled.status).to.equal('cancelled');
    expectMoneyMatchesKitchen(await find(paid), await intentOf(paid));
  });

  it('a staff refund in flight, then the cancellation: the cancellation refunds the rest, together exactly the capture', async () => {
    const { paidOrder, storefront, gateway, find, intentOf } = await aPayingStore();
    const paid = await paidOrder();
    await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
    const partialRefund = holdAfter(gateway, 'refund', (request) => !request.idempotencyKey.includes('_cancel'));
    const partial = storefront.refundOrder.execute({ orderId: paid.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'cold' });
    await partialRefund.reached;
    const cancelled = await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'cancelled', reason: 'oven broke' });
    partialRefund.open();
    await partial;

    expect(cancelled.payment!.refunds.map((r) => r.amount)).to.deep.equal([100, paid.amount - 100]);
    expectMoneyMatchesKitchen(await find(paid), await intentOf(paid));
  });

  it("the owner's cancel of an awaiting order racing the 'authorized' event: an order whose intent was cancelled never reaches the kitchen", async () => {
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
    await cancelling;

    const now = await find(order);
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expect({ status: now.status, payment: now.payment!.status }).to.deep.equal({ status: 'cancelled', payment: 'voided' });
    expect(await kitchenIds()).not.to.include(order.orderId);
  });

  it("the sweeper expiring a window racing the 'authorized' event: the event placed it first, so the sweeper leaves it paid", async () => {
    const { gateway, find, kitchenIds, tellNews, order, read, sweeping, authorizedNews } = await paidWhileSweeping();
    // ...and the event places the order...
    expect(await tellNews(authorizedNews)).to.equal('applied');
    // ...so the sweeper's cancellation loses, and it cancels nothing at the provider.
    read.open();
    await sweeping;

    expect((await find(order)).status).to.equal('placed');
    expect(await kitchenIds()).to.include(order.orderId);
    expect((await gateway.read(order.payment!.intentId)).status, 'the order in the kitchen keeps a capturable intent').to.equal('authorized');
  });

  it("the sweeper expiring a window, the 'authorized' event late: the order stays cancelled and its intent is released", async () => {
    const { gateway, find, kitchenIds, tellNews, order, read, sweeping, authorizedNews } = await paidWhileSweeping();
    // The sweeper cancels the order before the event comes, then the intent.
    read.open();
    await sweeping;
    expect(await tellNews(authorizedNews)).to.equal('applied');

    const now = await find(order);
    expect({ status: now.status, reason: now.reason, payment: now.payment!.status }).to.deep.equal({ status: 'cancelled', reason: 'payment_expired', payment: 'voided' });
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expect(await kitchenIds()).not.to.include(order.orderId);
  });

  it("the owner's cancel after the sweeper's expiry cancel lost its answer: the order is already cancelled, and the cancel finishes the void", async () => {
    const { place, storefront, gateway, find, world, owner } = await aPayingStore({ windowMs: 5 * MINUTE });
    const order = await place();
    world.clock.advance(5 * MINUTE);
    // The sweeper cancels the order, then the unpaid intent (reason `abandoned`); the provider acts, its answer is lost.
    loseAnswer(gateway, 'cancel');
    await storefront.paymentSweeper!.sweep().catch(() => undefined);
    expect(await find(order)).to.deep.include({ status: 'cancelled', reason: 'payment_expired' });
    expect((await find(order)).payment!.status, 'the void is owed').to.equal('awaiting');
    // The customer cancels before the next sweep: answered cancelled, and the void is finished under the expiry's own key.
    const cancelled = await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    expect({ status: cancelled.status, payment: cancelled.payment!.status }).to.deep.equal({ status: 'cancelled', payment: 'voided' });
  });
});
