/**
 * Card payments through the use cases (DECISIONS "Payments"), on the memory stores and the memory
 * card network: placement opens one intent per order, the kitchen sees an order only once paid,
 * acceptance captures, a rejection or cancellation gives the money back, refunds never pass the
 * capture, and the provider's news (events, or the sweeper's reads) takes effect once.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Order } from '@storefront/domain';
import { isDomainError } from '@storefront/domain';
import { InvalidPaymentRequest, type Refund } from '@storefront/domain/adapter-kit';
import { expectDomainError, Faults } from '@storefront/testing';
import type { MemoryAdapters } from '../../src/index.js';
import { aPayingStore, MINUTE } from './paying-store.js';

describe('Payments (use cases, memory card network)', () => {
  describe('placement', () => {
    it('stores the order awaiting its payment, with one intent for its amount and a client secret', async () => {
      const { place, gateway } = await aPayingStore();
      const order = await place('k-1');
      expect(order.status).to.equal('awaiting_payment');
      expect(order.statusHistory.map((c) => c.status)).to.deep.equal(['awaiting_payment']);
      expect(order.payment).to.deep.include({ provider: 'memory', status: 'awaiting', amount: order.amount, amountCaptured: 0, amountRefunded: 0 });
      expect(order.payment!.clientSecret).to.be.a('string').and.not.equal('');
      const intent = await gateway.read(order.payment!.intentId);
      expect(intent).to.deep.include({ status: 'awaiting', orderId: order.orderId, amount: order.amount });
    });

    it('answers a replay of the Idempotency-Key with the same order, intent and client secret', async () => {
      const { place } = await aPayingStore();
      const first = await place('k-replay');
      const again = await place('k-replay');
      expect(again).to.deep.equal(first);
    });

    it('answers 503 while the provider is down, stores nothing, and the retry with the same key completes it', async () => {
      const { place, gateway, adapters, owner } = await aPayingStore();
      gateway.available = false;
      const error = await place('k-down').catch((e: unknown) => e);
      expect(isDomainError(error) && error.code).to.equal('payment_provider_unavailable');
      expect(isDomainError(error) && error.retryAfterSeconds).to.be.a('number');
      expect((await adapters.orders.listByCustomer(owner.customerId, { page: 1, limit: 10 })).total).to.equal(0);
      gateway.available = true;
      const order = await place('k-down');
      expect(order.status).to.equal('awaiting_payment');
      expect((await adapters.orders.listByCustomer(owner.customerId, { page: 1, limit: 10 })).total).to.equal(1);
    });

    it('keeps an unpaid order out of the kitchen until its payment is authorized', async () => {
      const { place, pay, tell, kitchenIds, find } = await aPayingStore();
      const order = await place();
      expect(await kitchenIds()).not.to.include(order.orderId);
      await pay(order);
      expect(await tell(order)).to.equal('applied');
      const placed = await find(order);
      expect(placed.status).to.equal('placed');
      expect(placed.payment).to.deep.include({ status: 'authorized', clientSecret: null, checkAt: null });
      expect(await kitchenIds()).to.include(order.orderId);
    });
  });

  describe("the provider's events", () => {
    it('takes each event id once, whatever repeats it', async () => {
      const { place, pay, tell, find } = await aPayingStore();
      const order = await place();
      await pay(order);
      expect(await tell(order, 'evt_same')).to.equal('applied');
      const placed = await find(order);
      expect(await tell(order, 'evt_same')).to.equal('repeat');
      expect(await find(order)).to.deep.equal(placed);
    });

    it('leaves the order awaiting after a declined card, and places it when another card is good', async () => {
      const { place, pay, tell, find } = await aPayingStore();
      const order = await place();
      const declined = await pay(order, 'pm_card_chargeDeclined');
      expect(declined.status).to.equal('declined');
      await tell(order);
      expect((await find(order)).status).to.equal('awaiting_payment');
      await pay(order, 'pm_card_visa');
      await tell(order);
      expect((await find(order)).status).to.equal('placed');
    });

    it('changes nothing with news that comes late or out of order', async () => {
      const { place, pay, find, storefront, gateway } = await aPayingStore();
      const order = await place();
      const awaitingNews = await gateway.read(order.payment!.intentId);
      await pay(order);
      const authorizedNews = await gateway.read(order.payment!.intentId);
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_b', news: { intent: authorizedNews } });
      const placed = await find(order);
      // The older event arrives after the newer one.
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_a', news: { intent: awaitingNews } });
      expect(await find(order)).to.deep.equal(placed);
    });

    it('ignores an event about an intent no order has', async () => {
      const { storefront, gateway } = await aPayingStore();
      const stranger = await gateway.authorize({ orderId: 'ord_elsewhere', amount: 100, currency: 'USD', idempotencyKey: 'x' });
      expect(await storefront.takeProviderEvent!.execute({ eventId: 'evt_x', news: { intent: stranger } })).to.equal('ignored');
    });

    it("cancels the order once the intent is cancelled (payment_failed), giving the slot's place back", async () => {
      const { place, find, gateway, storefront } = await aPayingStore();
      const order = await place();
      const cancelled = await gateway.cancel({ intentId: order.payment!.intentId, idempotencyKey: 'provider-side' });
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_c', news: { intent: cancelled } });
      const now = await find(order);
      expect(now).to.deep.include({ status: 'cancelled', reason: 'payment_failed' });
      expect(now.payment!.status).to.equal('failed');
    });
  });

  describe('the kitchen', () => {
    it('captures the whole amount before accepting', async () => {
      const { paidOrder, storefront, gateway } = await aPayingStore();
      const order = await paidOrder();
      const accepted = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      expect(accepted.payment).to.deep.include({ status: 'captured', amountCaptured: order.amount });
      expect(await gateway.read(order.payment!.intentId)).to.deep.include({ status: 'captured', amountCaptured: order.amount });
    });

    it('leaves the order placed when the provider is down at acceptance (503), and accepts on the retry', async () => {
      const { paidOrder, storefront, gateway, find } = await aPayingStore();
      const order = await paidOrder();
      gateway.available = false;
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }), 'payment_provider_unavailable');
      expect((await find(order)).status).to.equal('placed');
      gateway.available = true;
      expect((await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' })).status).to.equal('accepted');
    });

    it('refuses to accept an order whose intent can no longer be captured (payment_failed), and it stays placed', async () => {
      const { paidOrder, storefront, gateway, find } = await aPayingStore();
      const order = await paidOrder();
      await gateway.cancel({ intentId: order.payment!.intentId, idempotencyKey: 'lapsed' });
      await expectDomainError(storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }), 'payment_failed');
      expect((await find(order)).status).to.equal('placed');
    });

    it('cancels the intent on a rejection: nothing is charged', async () => {
      const { paidOrder, storefront, gateway } = await aPayingStore();
      const order = await paidOrder();
      const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'out of dough' });
      expect(rejected.payment!.status).to.equal('voided');
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    });

    it('refunds the whole capture when the kitchen cancels after accepting', async () => {
      const { paidOrder, storefront, gateway } = await aPayingStore();
      const order = await paidOrder();
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      const cancelled = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'oven broke' });
      expect(cancelled.payment).to.deep.include({ status: 'refunded', amountCaptured: order.amount, amountRefunded: order.amount });
      expect(await gateway.read(order.payment!.intentId)).to.deep.include({ status: 'refunded', amountRefunded: order.amount });
    });

    it('refunds instead when a capture whose answer was lost meets a rejection', async () => {
      const { paidOrder, storefront, gateway } = await aPayingStore();
      const order = await paidOrder();
      // Captured at the provider; the order never heard of it.
      await gateway.capture({ intentId: order.payment!.intentId, idempotencyKey: `storefront:${order.orderId}:capture` });
      const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'closing early' });
      expect(rejected.payment).to.deep.include({ status: 'refunded', amountRefunded: order.amount });
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('refunded');
    });
  });

  describe('the owner cancels', () => {
    it('an order awaiting its payment: the intent is cancelled first', async () => {
      const { place, storefront, gateway, owner } = await aPayingStore();
      const order = await place();
      const cancelled = await storefront.cancelOrder.execute({ customerId: owner.customerId, orderId: order.orderId });
      expect(cancelled.status).to.equal('cancelled');
      expect(cancelled.payment!.status).to.equal('voided');
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    });
  });

  describe('staff refunds', () => {
    async function capturedOrder() {
      const store = await aPayingStore();
      const paid = await store.paidOrder();
      const order = await store.storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      return { ...store, order };
    }

    it('refunds part, then the rest; never more than captured', async () => {
      const { order, storefront, gateway } = await capturedOrder();
      const first = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 300, reason: 'cold soup', idempotencyKey: 'r1' });
      expect(first.refund).to.deep.include({ amount: 300, reason: 'cold soup', status: 'succeeded' });
      expect(first.order.payment).to.deep.include({ status: 'partially_refunded', amountRefunded: 300 });
      await expectDomainError(
        storefront.refundOrder.execute({ orderId: order.orderId, amount: order.amount - 299, reason: 'too much', idempotencyKey: 'r2' }),
        'refund_exceeds_captured',
      );
      const rest = await storefront.refundOrder.execute({ orderId: order.orderId, amount: order.amount - 300, reason: 'all of it', idempotencyKey: 'r3' });
      expect(rest.order.payment).to.deep.include({ status: 'refunded', amountRefunded: order.amount });
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('refunded');
    });

    it('answers a repeated Idempotency-Key with the same refund, and refuses it with another body', async () => {
      const { order, storefront } = await capturedOrder();
      const first = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'late', idempotencyKey: 'same' });
      const again = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'late', idempotencyKey: 'same' });
      expect(again.replayed).to.equal(true);
      expect(again.refund).to.deep.equal(first.refund);
      expect(again.order.payment!.amountRefunded).to.equal(100);
      await expectDomainError(
        storefront.refundOrder.execute({ orderId: order.orderId, amount: 200, reason: 'late', idempotencyKey: 'same' }),
        'idempotency_key_reused',
      );
    });

    it('lets concurrent refunds together never pass the capture', async () => {
      const { order, storefront, gateway } = await capturedOrder();
      const part = Math.floor(order.amount * 0.4);
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => storefront.refundOrder.execute({ orderId: order.orderId, amount: part, reason: 'race', idempotencyKey: `race-${i}` })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(2);
      const intent = await gateway.read(order.payment!.intentId);
      expect(intent).to.deep.include({ status: 'captured', amountRefunded: 2 * part });
    });

    it('refuses a refund of an order that was never captured', async () => {
      const { paidOrder, storefront } = await aPayingStore();
      const order = await paidOrder();
      await expectDomainError(storefront.refundOrder.execute({ orderId: order.orderId, amount: 1, reason: 'x' }), 'refund_exceeds_captured');
    });

    it('keeps a refund asked while the provider is down, and the retry with the same key makes it once', async () => {
      const { order, storefront, gateway } = await capturedOrder();
      gateway.available = false;
      await expectDomainError(
        storefront.refundOrder.execute({ orderId: order.orderId, amount: 500, reason: 'down', idempotencyKey: 'dk' }),
        'payment_provider_unavailable',
      );
      gateway.available = true;
      const retried = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 500, reason: 'down', idempotencyKey: 'dk' });
      expect(retried.refund.status).to.equal('succeeded');
      expect(retried.order.payment!.refunds).to.have.length(1);
      expect((await gateway.read(order.payment!.intentId)) as { amountRefunded: number }).to.deep.include({ amountRefunded: 500 });
    });
  });

  describe('the sweeper', () => {
    it('places a paid order whose event never came, once it has been quiet for 2 minutes', async () => {
      const { place, pay, world, storefront, find } = await aPayingStore();
      const order = await place();
      await pay(order);
      expect(await storefront.paymentSweeper!.sweep()).to.equal(0);
      world.clock.advance(2 * MINUTE);
      expect(await storefront.paymentSweeper!.sweep()).to.equal(1);
      expect((await find(order)).status).to.equal('placed');
      expect(await storefront.paymentSweeper!.sweep(), 'nothing left to check').to.equal(0);
    });

    it('cancels an order left unpaid past its window (payment_expired) and its intent', async () => {
      const { place, world, storefront, find, gateway } = await aPayingStore({ windowMs: 5 * MINUTE });
      const order = await place();
      for (let minute = 0; minute < 6; minute++) {
        world.clock.advance(MINUTE);
        await storefront.paymentSweeper!.sweep();
      }
      const now = await find(order);
      expect(now).to.deep.include({ status: 'cancelled', reason: 'payment_expired' });
      expect(now.payment!.status).to.equal('voided');
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    });

    it('reports an order whose read the provider refuses as sent, and settles the others of the batch all the same', async () => {
      const reported: string[] = [];
      const store = { background: { onError: (_error: unknown, task: string) => void reported.push(task) } };
      const { place, pay, world, storefront, find, gateway } = await aPayingStore({ store });
      const [poisoned, paid] = [await place(), await place()];
      await pay(paid);
      // An intent the provider no longer knows (made with other keys, say): every read of it is refused.
      const read = gateway.read.bind(gateway);
      gateway.read = async (intentId) => {
        if (intentId === poisoned.payment!.intentId) throw new InvalidPaymentRequest('invalid_request', 'No such payment_intent.');
        return read(intentId);
      };
      world.clock.advance(2 * MINUTE);
      expect(await storefront.paymentSweeper!.sweep()).to.equal(2);
      expect((await find(paid)).status, 'the order after it in the batch is settled').to.equal('placed');
      expect((await find(poisoned)).status).to.equal('awaiting_payment');
      expect(reported).to.deep.equal([`settle payments without news: order ${poisoned.orderId}`]);
    });

    it('ends the sweep when the provider is down, reporting no order: the leases pass and the next sweep reads them', async () => {
      const reported: string[] = [];
      const store = { background: { onError: (_error: unknown, task: string) => void reported.push(task) } };
      const { place, pay, world, storefront, find, gateway } = await aPayingStore({ store });
      const order = await place();
      await pay(order);
      world.clock.advance(2 * MINUTE);
      gateway.available = false;
      await expectDomainError(storefront.paymentSweeper!.sweep(), 'payment_provider_unavailable');
      gateway.available = true;
      expect(reported).to.deep.equal([]);
      world.clock.advance(MINUTE);
      expect(await storefront.paymentSweeper!.sweep()).to.equal(1);
      expect((await find(order)).status).to.equal('placed');
    });

    it("finishes a refund whose provider answer was lost", async () => {
      const { paidOrder, storefront, gateway, world, find } = await aPayingStore();
      const paid = await paidOrder();
      const order = await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      gateway.available = false;
      await storefront.refundOrder.execute({ orderId: order.orderId, amount: 250, reason: 'lost', idempotencyKey: 'l1' }).catch(() => undefined);
      gateway.available = true;
      world.clock.advance(2 * MINUTE);
      await storefront.paymentSweeper!.sweep();
      const now = await find(order);
      expect(now.payment!.refunds[0]).to.deep.include({ status: 'succeeded', amount: 250 });
      expect(((await gateway.read(order.payment!.intentId)) as { amountRefunded: number }).amountRefunded).to.equal(250);
    });
  });

  describe('refund news', () => {
    it('marks a refund that failed after it succeeded as failed, once, and frees its amount', async () => {
      const { paidOrder, storefront, find, gateway } = await aPayingStore();
      const paid = await paidOrder();
      const order = await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      const { refund } = await storefront.refundOrder.execute({ orderId: order.orderId, amount: 100, reason: 'r' });
      expect(refund.status).to.equal('succeeded');
      const news = (status: Refund['status']): Refund => ({ status, refundId: refund.providerRefundId!, intentId: order.payment!.intentId, amount: 100, category: null, reason: 'r', reference: refund.refundId });
      expect(await gateway.failRefund(refund.providerRefundId!)).to.deep.include(news('failed'));
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_rf_failed', news: { refund: news('failed') } });
      const failed = await find(order);
      expect(failed.payment!.refunds[0]!.status).to.equal('failed');
      expect(failed.payment).to.deep.include({ status: 'captured', amountRefunded: 0 });
      // The same news again, and the older `succeeded` arriving late, change nothing.
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_rf_failed_again', news: { refund: news('failed') } });
      await storefront.takeProviderEvent!.execute({ eventId: 'evt_rf_late', news: { refund: news('succeeded') } });
      expect((await find(order)).version).to.equal(failed.version);
      // What failed may be refunded again.
      expect((await storefront.refundOrder.execute({ orderId: order.orderId, amount: order.amount, reason: 'all' })).refund.status).to.equal('succeeded');
    });
  });

  describe('under faults', () => {
    it('asks for one intent when the order was not stored after the provider answered, whatever the retries', async () => {
      let faults!: Faults<MemoryAdapters['orders']>;
      const store = await aPayingStore({ ports: (adapters) => ((faults = new Faults(adapters.orders)), { orders: faults.target }) });
      const intents = new Set<string>();
      const authorize = store.gateway.authorize.bind(store.gateway);
      store.gateway.authorize = async (request) => {
        const outcome = await authorize(request);
        intents.add(outcome.intentId);
        return outcome;
      };
      faults.fail('insert', 'before');
      await store.place('crash-before').catch(() => undefined);
      const order = await store.place('crash-before');
      faults.fail('insert', 'after');
      await store.place('crash-after').catch(() => undefined);
      const other = await store.place('crash-after');
      expect(intents, 'one intent per order').to.have.length(2);
      expect([...intents].sort()).to.deep.equal([order.payment!.intentId, other.payment!.intentId].sort());
    });

    it('rejects at once when the void cannot reach the provider, and the sweeper releases the card once it is back', async () => {
      const { paidOrder, storefront, gateway, find, kitchenIds, world } = await aPayingStore();
      const order = await paidOrder();
      gateway.available = false;
      const rejected = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: 'closing' });
      // The kitchen's word stands; the void is owed (the card is still held) and the sweeper is due.
      expect({ status: rejected.status, payment: rejected.payment!.status }).to.deep.equal({ status: 'rejected', payment: 'authorized' });
      expect(await kitchenIds()).not.to.include(order.orderId);
      gateway.available = true;
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('authorized');
      await storefront.paymentSweeper!.sweep();
      expect((await find(order)).payment!.status, 'not before the check is due').to.equal('authorized');
      world.clock.advance(2 * MINUTE);
      await storefront.paymentSweeper!.sweep();
      expect((await find(order)).payment!.status).to.equal('voided');
      expect((await gateway.read(order.payment!.intentId)).status).to.equal('canceled');
    });

    it('stores a cancellation after capture with its whole refund pending while the provider is down; the sweeper makes it once', async () => {
      const { paidOrder, storefront, gateway, find, world } = await aPayingStore();
      const paid = await paidOrder();
      await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      gateway.available = false;
      const cancelled = await storefront.moveOrder.execute({ orderId: paid.orderId, status: 'cancelled', reason: 'fire' });
      expect(cancelled.status).to.equal('cancelled');
      expect(cancelled.payment).to.deep.include({ status: 'refunded', amountRefunded: paid.amount });
      expect(cancelled.payment!.refunds.map((r) => ({ amount: r.amount, status: r.status }))).to.deep.equal([{ amount: paid.amount, status: 'pending' }]);
      gateway.available = true;
      expect(await gateway.read(paid.payment!.intentId)).to.deep.include({ status: 'captured', amountRefunded: 0 });
      world.clock.advance(2 * MINUTE);
      await storefront.paymentSweeper!.sweep();
      await storefront.paymentSweeper!.sweep();
      expect((await find(paid)).payment!.refunds.map((r) => r.status)).to.deep.equal(['succeeded']);
      expect(await gateway.read(paid.payment!.intentId)).to.deep.include({ status: 'refunded', amountRefunded: paid.amount });
    });

    it('plans a cancellation again when a staff refund was recorded while it was being stored: together exactly the capture', async () => {
      let faults!: Faults<MemoryAdapters['orders']>;
      const store = await aPayingStore({ ports: (adapters) => ((faults = new Faults(adapters.orders)), { orders: faults.target }) });
      const paid = await store.paidOrder();
      await store.storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      // The cancellation, planned on the accepted order (everything to refund), is held on its way to the store...
      const storing = faults.hold('applyMove');
      const cancelling = store.storefront.moveOrder.execute({ orderId: paid.orderId, status: 'cancelled', reason: 'fire' });
      await storing.reached;
      // ...while another screen's refund of 100 is recorded and made.
      await store.storefront.refundOrder.execute({ orderId: paid.orderId, amount: 100, reason: 'cold', idempotencyKey: 'cold' });
      storing.open();
      const cancelled = await cancelling;
      expect(cancelled.status).to.equal('cancelled');
      expect(cancelled.payment!.refunds.map((r) => [r.amount, r.status])).to.deep.equal([
        [100, 'succeeded'],
        [paid.amount - 100, 'succeeded'],
      ]);
      expect(await store.gateway.read(paid.payment!.intentId)).to.deep.include({ status: 'refunded', amountRefunded: paid.amount });
    });

    it("refunds once when the provider's answer to a refund was not recorded (the sweeper finishes it)", async () => {
      let faults!: Faults<MemoryAdapters['orders']>;
      const store = await aPayingStore({ ports: (adapters) => ((faults = new Faults(adapters.orders)), { orders: faults.target }) });
      const paid = await store.paidOrder();
      await store.storefront.moveOrder.execute({ orderId: paid.orderId, status: 'accepted' });
      // The refund is recorded (first applyMove); recording the provider's answer (the second) fails.
      const recorded = faults.hold('applyMove');
      const asking = store.storefront.refundOrder.execute({ orderId: paid.orderId, amount: 300, reason: 'crash', idempotencyKey: 'c1' });
      await recorded.reached;
      faults.fail('applyMove', 'before');
      recorded.open();
      faults.fail('applyMove', 'before');
      faults.fail('applyMove', 'before');
      faults.fail('applyMove', 'before');
      faults.fail('applyMove', 'before');
      await asking.catch(() => undefined);
      faults.heal();
      store.world.clock.advance(2 * MINUTE);
      await store.storefront.paymentSweeper!.sweep();
      const now = await store.find(paid);
      expect(now.payment!.refunds).to.have.length(1);
      expect(now.payment!.refunds[0]).to.deep.include({ status: 'succeeded', amount: 300 });
      expect(((await store.gateway.read(paid.payment!.intentId)) as { amountRefunded: number }).amountRefunded).to.equal(300);
    });

    it("holds an awaiting order's slot place, and gives it back when the payment window passes", async () => {
      const { place, world, storefront, find } = await aPayingStore({ windowMs: 5 * MINUTE, store: { fulfilment: { capacity: 1 } } });
      const order = await place();
      const slotOf = async () =>
        (await storefront.listSlots.execute({})).slots.find((slot) => slot.start.getTime() === order.fulfilment.promisedAt.getTime());
      expect(await slotOf(), 'full while awaiting').to.equal(undefined);
      for (let minute = 0; minute < 6; minute++) {
        world.clock.advance(MINUTE);
        await storefront.paymentSweeper!.sweep();
      }
      expect((await find(order)).status).to.equal('cancelled');
      expect(await slotOf(), 'offered again, its place free').to.deep.include({ remaining: 1 });
    });
  });
});
