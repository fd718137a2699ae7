/**
 * Third review of card payments: re-owed cancellation refunds, late and repeated refund news, refunds
 * made in the dashboard, retried lost answers and placements under a slow provider, each against an
 * invariant of DECISIONS "Payments". The second block holds those that broke an invariant;
 * docs/payments-review.md, "Review 3", says what each fix is.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '@storefront/domain';
import { CANCELLATION_REFUND_ATTEMPTS, cancellationRefundId } from '@storefront/domain/adapter-kit';
import type { PaymentIntentOutcome, Refund } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import type { PlaceOrderResult } from '@storefront/domain';
import { aPayingStore, expectBooksMatchProvider, expectMoneyMatchesKitchen, expectNothingOwed, holdAfter, holdBefore, loseAnswer, MINUTE } from './paying-store.js';

describe('Payments review 3: interleavings that hold', () => {
  it("the re-owed cancellation refund fails at the bank while its ask is held (its event first): the third is asked, the capture goes back", async () => {
    const { acceptedOrder, storefront, gateway, find, tellRefund, world, expectSettled } = await aPayingStore();
    const order = await acceptedOrder();
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    expect(await tellRefund(await gateway.failRefund(cancelled.payment!.refunds[0]!.providerRefundId!))).to.equal('applied');
    // The sweeper asks _cancel_2: the provider makes it, the answer is slow; the bank sends it back at once and its event comes first.
    const second = cancellationRefundId(order.orderId, 2);
    const asked = holdAfter(gateway, 'refund', (request) => request.reference === second);
    world.clock.advance(3 * MINUTE);
    const sweeping = storefront.paymentSweeper!.sweep();
    await asked.reached;
    const made = (await gateway.refundsOf(order.payment!.intentId)).find((r) => r.reference === second)!;
    expect(await tellRefund(await gateway.failRefund(made.refundId))).to.equal('applied');
    asked.open();
    await sweeping;
    const now = await expectSettled(order);
    expect(now.payment!.refunds.map((r) => [r.refundId, r.status])).to.deep.equal([
      [cancellationRefundId(order.orderId), 'failed'],
      [second, 'failed'],
      [cancellationRefundId(order.orderId, 3), 'succeeded'],
    ]);
  });

  it("a cancellation refund's failure told twice, then its stale 'succeeded' event late: owed again once, never undone", async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, tellRefund, settle } = await aPayingStore();
    const order = await acceptedOrder();
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    const providerId = cancelled.payment!.refunds[0]!.providerRefundId!;
    const succeeded = await gateway.readRefund(providerId);
    const failed = await gateway.failRefund(providerId);
    expect(await tellRefund(failed)).to.equal('applied');
    const afterFirst = await find(order);
    expect(await tellRefund(failed)).to.equal('applied');
    expect(await tellRefund(succeeded)).to.equal('applied');
    expect((await find(order)).version, 'the repeats change nothing').to.equal(afterFirst.version);
    await settle();
    // The re-owed refund made; its late repeats too.
    expect(await tellRefund(failed)).to.equal('applied');
    expect(await tellRefund(succeeded)).to.equal('applied');
    const now = await find(order);
    expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(['failed', 'succeeded']);
    expectMoneyMatchesKitchen(now, await intentOf(order));
    expectNothingOwed(now);
  });

  it("the sweeper's read of a re-asked cancellation refund held while the failure's event settles it: one re-owe, the capture goes back", async () => {
    const { acceptedOrder, storefront, gateway, tellRefund, world, expectSettled } = await aPayingStore();
    const order = await acceptedOrder();
    const answers = loseAnswer(gateway, 'refund');
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    const made = answers[0] as Refund;
    const failed = await gateway.failRefund(made.refundId);
    // The sweeper asks it again (the replayed 'succeeded'), then reads it: held before the read.
    world.clock.advance(3 * MINUTE);
    const read = holdBefore(gateway, 'readRefund');
    const sweeping = storefront.paymentSweeper!.sweep();
    await read.reached;
    expect(await tellRefund(failed)).to.equal('applied');
    read.open();
    await sweeping;
    const now = await expectSettled(order);
    expect(now.payment!.refunds.map((r) => [r.refundId, r.status])).to.deep.equal([
      [cancellationRefundId(order.orderId), 'failed'],
      [cancellationRefundId(order.orderId, 2), 'succeeded'],
    ]);
  });

  it('a staff refund racing the re-owe of a failed cancellation refund finds nothing left (422); the capture goes back once', async () => {
    const { acceptedOrder, storefront, gateway, tellRefund, expectSettled } = await aPayingStore();
    const order = await acceptedOrder();
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    const failed = await gateway.failRefund(cancelled.payment!.refunds[0]!.providerRefundId!);
    // Before the failure's news: the books still count the refund.
    await expectDomainError(storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'goodwill', idempotencyKey: 'g1' }), 'refund_exceeds_captured');
    expect(await tellRefund(failed)).to.equal('applied');
    // After it: the re-owed refund reserves everything.
    await expectDomainError(storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'goodwill', idempotencyKey: 'g2' }), 'refund_exceeds_captured');
    await expectSettled(order);
  });

  it("a staff refund, then the cancellation of the rest, then the staff refund fails at the bank: its amount is owed again and goes back", async () => {
    const { acceptedOrder, storefront, gateway, tellRefund, expectSettled } = await aPayingStore();
    const order = await acceptedOrder();
    const { refund } = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' });
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    expect(cancelled.payment!.refunds.map((r) => r.amount)).to.deep.equal([100, order.amount - 100]);
    expect(await tellRefund(await gateway.failRefund(refund.providerRefundId!))).to.equal('applied');
    const now = await expectSettled(order);
    expect(now.payment!.refunds.map((r) => [r.amount, r.status])).to.deep.equal([
      [100, 'failed'],
      [order.amount - 100, 'succeeded'],
      [100, 'succeeded'],
    ]);
  });

  it("a refund made elsewhere (reference null): its events, repeated, change nothing on the order", async () => {
    const { paidOrder, storefront, gateway, find, tellRefund } = await aPayingStore();
    const order = await paidOrder();
    const accepted = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
    const news = await gateway.refundElsewhere(order.payment!.intentId, 100);
    expect(news.reference).to.equal(null);
    expect(await tellRefund(news)).to.equal('applied');
    expect(await tellRefund(await gateway.failRefund(news.refundId))).to.equal('applied');
    const now = await find(order);
    expect(now.version).to.equal(accepted.version);
    expect(now.payment!.refunds).to.deep.equal([]);
  });

  it("an acceptance whose capture answer was lost, the owner's cancel, a staff refund meanwhile: 422, the capture goes back once", async () => {
    const { captureAnswerLost, storefront, gateway, owner, expectSettled } = await aPayingStore();
    const order = await captureAnswerLost();
    // The owner's void is refused (captured); its read of the intent is held.
    const read = holdAfter(gateway, 'read');
    const cancelling = storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    await read.reached;
    await expectDomainError(storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' }), 'refund_exceeds_captured');
    read.open();
    const cancelled = await cancelling;
    expect(cancelled.payment!.refunds.map((r) => r.status)).to.deep.equal(['succeeded']);
    await expectDomainError(storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k2' }), 'refund_exceeds_captured');
    await expectSettled(order);
  });

  it("the sweeper's expiry read held, the customer pays, the event places the order and the kitchen rejects it: rejected, card released, never cooked", async () => {
    const { place, pay, tellNews, storefront, gateway, find, kitchenIds, world, settle } = await aPayingStore({ windowMs: 5 * MINUTE });
    const order = await place();
    world.clock.advance(5 * MINUTE);
    const read = holdAfter(gateway, 'read');
    const sweeping = storefront.paymentSweeper!.sweep();
    await read.reached;
    const authorized = await pay(order);
    expect(await tellNews(authorized)).to.equal('applied');
    expect(await kitchenIds()).to.include(order.orderId);
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'closing' });
    read.open();
    await sweeping;
    await settle();
    const now = await find(order);
    expect({ status: now.status, payment: now.payment!.status }).to.deep.equal({ status: 'rejected', payment: 'voided' });
    expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    expect(await kitchenIds()).not.to.include(order.orderId);
    expectNothingOwed(now);
  });

  it('a placement retried with its key while the provider is down, then while the first is slow: one order for the key, its intent live, every other intent cancelled or never shown', async () => {
    const { storefront, gateway, owner, soup, pay, tell, find, kitchenIds } = await aPayingStore();
    const input = { customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 2 }], idempotencyKey: 'slow-submit' };
    gateway.available = false;
    await expectDomainError(storefront.placeOrder.execute(input), 'payment_provider_unavailable');
    gateway.available = true;
    // The next attempt's authorization is slow to reach the provider; the client retries meanwhile.
    const held = holdBefore(gateway, 'authorize');
    const authorize = gateway.authorize.bind(gateway);
    const intents: PaymentIntentOutcome[] = [];
    gateway.authorize = async (request) => {
      const outcome = await authorize(request);
      intents.push(outcome);
      return outcome;
    };
    const slow = storefront.placeOrder.execute(input);
    await held.reached;
    const retry = await storefront.placeOrder.execute(input).then(
      (r) => r,
      (e: unknown) => e,
    );
    held.open();
    const late = await slow.then(
      (r) => r,
      (e: unknown) => e,
    );
    const answers = [retry, late].filter((a): a is PlaceOrderResult => !isDomainError(a));
    for (const a of [retry, late]) if (isDomainError(a)) expect(a.code).to.equal('idempotency_key_in_use');
    expect(answers.length).to.be.greaterThan(0);
    const orderIds = new Set(answers.map((a) => a.order.orderId));
    expect(orderIds.size, 'one key, one order').to.equal(1);
    const stored = await find(answers[0]!.order);
    // Every intent made for another order id is cancelled (never paid).
    for (const intent of intents) {
      if (intent.intentId === stored.payment!.intentId) continue;
      expect((await gateway.read(intent.intentId)).status, 'an intent no stored order uses').to.equal('canceled');
    }
    await pay(stored);
    await tell(stored);
    expect(await kitchenIds()).to.include(stored.orderId);
  });
});

describe('Payments review 3: interleavings that once broke an invariant', () => {
  it("a staff refund whose answer was lost and that then failed at the bank, retried by the staff with its key (the event never sent): the books match the provider", async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, settle } = await aPayingStore();
    const order = await acceptedOrder();
    const answers = loseAnswer(gateway, 'refund');
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' }).catch(() => undefined);
    await gateway.failRefund((answers[0] as Refund).refundId);
    // The staff retry with the same key: the provider replays its first answer (succeeded).
    const retried = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'cold soup', idempotencyKey: 'k1' });
    expect(retried.replayed).to.equal(true);
    await settle();
    const now = await find(order);
    expectBooksMatchProvider(now, await intentOf(order));
    expect(now.payment!.refunds.map((r) => r.status), 'the refund failed at the bank').to.deep.equal(['failed']);
    expectNothingOwed(now);
  });

  it("a cancellation's refund whose answer was lost and that then failed at the bank, asked again by the owner's retried cancel (the event never sent): the capture goes back", async () => {
    const { captureAnswerLost, storefront, gateway, owner, expectSettled } = await aPayingStore();
    // The acceptance captured, its answer lost: the order stays placed; the owner cancels it.
    const order = await captureAnswerLost();
    // The void finds the capture and records the refund; the refund's answer is lost.
    const answers = loseAnswer(gateway, 'refund');
    await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    await gateway.failRefund((answers[0] as Refund).refundId);
    // The owner's retry (their cancel's answer was slow): the refund asked again, its first answer replayed.
    await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
    const now = await expectSettled(order);
    expect(now.status).to.equal('cancelled');
  });

  it("a part refunded from the dashboard, then the kitchen cancels: the cancellation's refund, refused as too large, is asked again for what the intent holds", async () => {
    const { acceptedOrder, storefront, gateway, find, intentOf, settle } = await aPayingStore();
    const order = await acceptedOrder();
    await gateway.refundElsewhere(order.payment!.intentId, 100);
    const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    await settle();
    const now = await find(order);
    const intent = await intentOf(order);
    expect(
      { captured: intent.amountCaptured, refunded: intent.amountRefunded },
      `the cancelled order's capture is given back (refunds: ${JSON.stringify(cancelled.payment!.refunds.map((r) => [r.refundId, r.status]))})`,
    ).to.deep.equal({ captured: order.amount, refunded: order.amount });
    expectNothingOwed(now);
  });

  it("a staff refund the provider refused, retried with its key once the provider has room, stays refused: never more refunded than captured", async () => {
    const { acceptedOrder, storefront, gateway, find } = await aPayingStore();
    const order = await acceptedOrder();
    const elsewhere = await gateway.refundElsewhere(order.payment!.intentId, 600);
    const refused = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 500, reason: 'cold soup', idempotencyKey: 'k1' });
    expect(refused.refund.status).to.equal('failed');
    // The freed amount is reserved by another refund (asked later: the provider is down).
    gateway.available = false;
    await storefront.refundOrder.execute({ orderId: order.orderId, amount: order.amount, reason: 'all of it', idempotencyKey: 'k2' }).catch(() => undefined);
    gateway.available = true;
    // The dashboard's refund fails at the bank; the staff retry k1.
    await gateway.failRefund(elsewhere.refundId);
    const retried = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 500, reason: 'cold soup', idempotencyKey: 'k1' });
    const now = await find(order);
    expect(now.payment!.amountRefunded, `never more refunded than captured (${JSON.stringify(now.payment!.refunds.map((r) => [r.amount, r.status]))})`).to.be.at.most(now.payment!.amountCaptured);
    expect(retried.refund.status, 'a refused refund stays failed: the retry answers it').to.equal('failed');
  });

  it("a placed order whose card authorization lapsed (the provider's 'canceled' event, expired) leaves the kitchen: never an unpaid order in the kitchen", async () => {
    const { paidOrder, world, find, kitchenIds, tell } = await aPayingStore();
    const order = await paidOrder();
    world.clock.advance(7 * 24 * 60 * MINUTE);
    expect(await tell(order)).to.equal('applied');
    const now = await find(order);
    expect(await kitchenIds(), `the order is ${now.status} with its payment ${now.payment!.status}, its intent canceled`).not.to.include(order.orderId);
  });

  it('a refusal is no attempt: after a part refunded elsewhere, three failures at the bank are still asked before the rest is left', async () => {
    const { acceptedOrder, storefront, gateway, find, tellRefund, settle } = await aPayingStore();
    const order = await acceptedOrder();
    await gateway.refundElsewhere(order.payment!.intentId, 100);
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    for (let failures = 0; failures < CANCELLATION_REFUND_ATTEMPTS; failures++) {
      await settle();
      const record = (await find(order)).payment!.refunds.at(-1)!;
      expect(record.status).to.equal('succeeded');
      expect(await tellRefund(await gateway.failRefund(record.providerRefundId!))).to.equal('applied');
    }
    await settle();
    const now = await find(order);
    expect(now.payment!.refunds.map((r) => [r.amount, r.status])).to.deep.equal([
      [order.amount, 'failed'],
      ...Array(CANCELLATION_REFUND_ATTEMPTS).fill([order.amount - 100, 'failed']),
    ]);
    expectNothingOwed(now);
  });

  it('a provider that refuses every cancellation refund as too large however much it holds: the records stop at twice the attempts', async () => {
    const { acceptedOrder, storefront, gateway, find, settle } = await aPayingStore();
    const order = await acceptedOrder();
    gateway.refund = async (request) => ({ status: 'refused', intentId: request.intentId, refusal: 'amount_too_large' });
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
    for (let sweep = 0; sweep < 5; sweep++) await settle();
    const now = await find(order);
    expect(now.payment!.refunds.map((r) => r.status)).to.deep.equal(Array(2 * CANCELLATION_REFUND_ATTEMPTS).fill('failed'));
    expectNothingOwed(now);
  });
});
