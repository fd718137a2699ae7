/**
 * Second review of card payments: races, lost answers and late or ambiguous news, each test driving
 * one interleaving against an invariant of DECISIONS "Payments" (the books match the provider, the
 * money follows the kitchen, nothing is left owed). The second block holds those that broke an
 * invariant; docs/payments-review.md, "Review 2", says what each fix is.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '@storefront/domain';
import { CANCELLATION_REFUND_ATTEMPTS, cancellationRefundId } from '@storefront/domain/adapter-kit';
import type { Refund } from '@storefront/domain/adapter-kit';
import { aPayingStore, expectBooksMatchProvider, expectMoneyMatchesKitchen, expectNothingOwed, holdAfter, holdBefore, loseAnswer, MINUTE } from './paying-store.js';

describe('Payments review 2: interleavings that hold', () => {
  it("an acceptance whose capture answer was lost (503), then a rejection: the void finds the capture and refunds it", async () => {
    const { paidOrder, storefront, gateway, find, expectSettled } = await aPayingStore();
    const order = await paidOrder();
    loseAnswer(gateway, 'capture');
    const acceptError = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDomainError(acceptError) && acceptError.code).to.equal('payment_provider_unavailable');
    expect((await find(order)).status, 'the order stays placed').to.equal('placed');
    const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'out of dough' });
    expect(rejected.status).to.equal('rejected');
    await expectSettled(order);
  });

  it('a rejection stored while the provider is down, an acceptance whose capture landed meanwhile: the sweeper refunds it', async () => {
    const { paidOrder, storefront, gateway, expectSettled } = await aPayingStore();
    const order = await paidOrder();
    // Staff A accepts: the capture reaches the provider, its answer is slow.
    const captured = holdAfter(gateway, 'capture');
    const accepting = storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    await captured.reached;
    // Staff B rejects while the provider is unreachable: stored, the void owed.
    gateway.available = false;
    const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'out of dough' });
    expect({ status: rejected.status, payment: rejected.payment!.status }).to.deep.equal({ status: 'rejected', payment: 'authorized' });
    gateway.available = true;
    captured.open();
    const acceptError = await accepting.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDomainError(acceptError) && acceptError.code).to.equal('invalid_transition');
    await expectSettled(order);
  });

  // The sweeper's void is refused (captured) and it reads the intent: held after the read (it saw
  // `captured`) or before it (it sees `refunded`), while the owner's retried cancel finds the capture,
  // records the refund and makes it. Reading `refunded` used to throw `payment_failed` and end the sweep.
  for (const [when, hold] of [
    ['after', holdAfter],
    ['before', holdBefore],
  ] as const) {
    it(`the sweeper and the owner's retried cancel give back the same owed capture at once (the sweeper's read held ${when} it reads): refunded once, the sweep goes on`, async () => {
      const { captureAnswerLost, storefront, gateway, world, owner, expectSettled } = await aPayingStore();
      // The acceptance captured, its answer lost: the order stays placed with the books saying authorized.
      const order = await captureAnswerLost();
      // The owner cancels while the provider is down: the void is owed.
      gateway.available = false;
      await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
      gateway.available = true;
      world.clock.advance(3 * MINUTE);
      const read = hold(gateway, 'read');
      const sweeping = storefront.paymentSweeper!.sweep();
      await read.reached;
      const cancelled = await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
      expect(cancelled.payment!.refunds.map((r) => r.status)).to.deep.equal(['succeeded']);
      read.open();
      expect(await sweeping, 'the sweep took the order and finished').to.equal(1);
      const now = await expectSettled(order);
      expect(now.payment!.refunds).to.have.length(1);
    });
  }

  it("a staff refund whose answer was lost and that then failed at the bank: the failure's event settles it, books match", async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, tellRefund, settle } = await aPayingStore();
    const order = await acceptedOrder();
    const answers = loseAnswer(gateway, 'refund');
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' }).catch(() => undefined);
    const made = answers[0] as Refund;
    expect(await tellRefund(await gateway.failRefund(made.refundId))).to.equal('applied');
    await settle();
    const now = await find(order);
    expectBooksMatchProvider(now, await intentOf(order));
    expectNothingOwed(now);
  });

  it("the owner's cancel of an awaiting order with the void's answer lost, the customer paying meanwhile: never in the kitchen, the card released", async () => {
    const { place, pay, storefront, gateway, find, kitchenIds, tellNews, owner, settle } = await aPayingStore();
    const order = await place();
    const authorized = await pay(order);
    loseAnswer(gateway, 'cancel');
    await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    // The 'authorized' event comes late, after the cancel was stored.
    expect(await tellNews(authorized)).to.equal('applied');
    expect(await kitchenIds()).not.to.include(order.orderId);
    await settle();
    const now = await find(order);
    expect({ status: now.status, payment: now.payment!.status }).to.deep.equal({ status: 'cancelled', payment: 'voided' });
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expectNothingOwed(now);
  });
});

describe('Payments review 2: interleavings that once broke an invariant', () => {
  it('a refund failure whose event comes while two refunds of the same amount await their answers settles the one it concerns: the books match', async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, tellRefund, settle } = await aPayingStore();
    const order = await acceptedOrder();
    // Refund 1 (100): the provider makes it, its answer is lost.
    const answers = loseAnswer(gateway, 'refund');
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' }).catch(() => undefined);
    const first = answers[0] as Refund;
    // Refund 2 (100) is recorded while the provider is unreachable: asked later by the sweeper.
    gateway.available = false;
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'late', idempotencyKey: 'k2' }).catch(() => undefined);
    gateway.available = true;
    // The bank sends refund 1 back; two records of 100 await their answers: the event names ours.
    expect(await tellRefund(await gateway.failRefund(first.refundId))).to.equal('applied');
    expect((await find(order)).payment!.refunds.map((r) => r.status)).to.deep.equal(['failed', 'pending']);
    await settle();
    const now = await find(order);
    expectBooksMatchProvider(now, await intentOf(order));
    expectNothingOwed(now);
  });

  it("a refund whose answer was lost and that then failed at the bank, its event never sent: the sweeper's retry reads past the replayed answer", async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, settle } = await aPayingStore();
    const order = await acceptedOrder();
    const answers = loseAnswer(gateway, 'refund');
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' }).catch(() => undefined);
    await gateway.failRefund((answers[0] as Refund).refundId);
    // Asked again under its key, the provider answers what it first answered (succeeded).
    await settle();
    const now = await find(order);
    expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(['failed']);
    expectBooksMatchProvider(now, await intentOf(order));
    expectNothingOwed(now);
  });

  it("a cancellation's refund that fails after succeeding is owed again: the capture goes back", async () => {
    const { acceptedOrder, storefront, gateway, tellRefund, expectSettled } = await aPayingStore();
    const order = await acceptedOrder();
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    const refund = cancelled.payment!.refunds[0]!;
    expect(refund.status).to.equal('succeeded');
    expect(await tellRefund(await gateway.failRefund(refund.providerRefundId!))).to.equal('applied');
    const now = await expectSettled(order);
    expect(now.status).to.equal('cancelled');
    expect(now.payment!.refunds.map((r) => [r.refundId, r.status])).to.deep.equal([
      [cancellationRefundId(order.orderId), 'failed'],
      [cancellationRefundId(order.orderId, 2), 'succeeded'],
    ]);
  });

  it(`a cancellation's refund failing at every attempt is asked ${CANCELLATION_REFUND_ATTEMPTS} times, then left to the restaurant: nothing more is owed`, async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, tellRefund, settle } = await aPayingStore();
    const order = await acceptedOrder();
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    for (let attempt = 1; attempt <= CANCELLATION_REFUND_ATTEMPTS; attempt++) {
      await settle();
      const record = (await find(order)).payment!.refunds.at(-1)!;
      expect(record.refundId).to.equal(cancellationRefundId(order.orderId, attempt));
      expect(await tellRefund(await gateway.failRefund(record.providerRefundId!))).to.equal('applied');
    }
    await settle();
    const now = await find(order);
    expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(Array(CANCELLATION_REFUND_ATTEMPTS).fill('failed'));
    expect(now.payment!.status).to.equal('captured');
    expectBooksMatchProvider(now, await intentOf(order));
    expectNothingOwed(now);
  });

  it('a placement whose one-step write found the key held gives up that intent and stores the order with a live one', async () => {
    const { storefront, gateway, adapters, owner, world, soup, pay, tell, find, kitchenIds } = await aPayingStore();
    const key = 'double-submit';
    // Another request with the same key holds its claim (its pricing is failing and it will release the key).
    const now = world.clock.now();
    await adapters.idempotencyKeys.claim(
      {
        customerId: owner.customerId,
        key,
        fingerprint: 'other',
        owner: 'other-request',
        orderId: 'ord_other',
        orderCreatedAt: now,
        lockExpiresAt: new Date(now.getTime() + MINUTE),
        expiresAt: new Date(now.getTime() + 24 * 60 * MINUTE),
      },
      now,
    );
    // This request's one-step write finds the key held and cancels its intent (`abandoned`); the other request releases the key meanwhile.
    const cancel = gateway.cancel.bind(gateway);
    gateway.cancel = async (request) => {
      const answer = await cancel(request);
      await adapters.idempotencyKeys.release({ customerId: owner.customerId, key }, 'other-request');
      return answer;
    };
    const { order } = await storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 2 }], idempotencyKey: key });
    expect(order.status).to.equal('awaiting_payment');
    // The customer is handed an intent that can no longer be paid.
    expect((await gateway.read(order.payment!.intentId)).status, 'the stored order has a live intent').not.to.equal('canceled');
    await pay(order).catch(() => undefined);
    await tell(order);
    expect(await kitchenIds()).to.include((await find(order)).orderId);
  });
});
