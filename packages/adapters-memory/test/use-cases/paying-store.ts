/**
 * A store taking card payments on the memory card network, for the payments specs: the world and its
 * use cases, one customer, one product, the steps of paying (place, pay, the provider's news), and
 * the gates that hold or lose a provider call so that another request runs in between, as it can in
 * production. Also the invariants the reviews check: the books match the provider, the money
 * follows the kitchen, nothing is left owed.
 */
import { expect } from 'chai';
import { DomainError } from '@storefront/domain';
import type { Order, StorefrontOptions, StorefrontPorts } from '@storefront/domain';
import type { PaymentIntentOutcome, Refund } from '@storefront/domain/adapter-kit';
import { InMemoryPaymentGateway, type MemoryAdapters } from '../../src/index.js';
import { aWorld, withMenu, type World } from './world.js';

export const MINUTE = 60_000;

export interface PayingStoreOptions {
  /** How long a customer has to pay. Default 15 minutes. */
  readonly windowMs?: number;
  readonly store?: StorefrontOptions;
  readonly ports?: (adapters: MemoryAdapters) => Partial<StorefrontPorts>;
}

/** The intent as the provider has it, with the amounts captured and refunded where it has them. */
export type IntentAmounts = PaymentIntentOutcome & { amountRefunded?: number; amountCaptured?: number };

export async function aPayingStore(options: PayingStoreOptions = {}) {
  // The card network reads the world's clock, made with the world.
  let clockOf: () => Date = () => new Date();
  const gateway = new InMemoryPaymentGateway({ clock: { now: () => clockOf() } });
  const world: World = aWorld({ payments: { windowMs: options.windowMs ?? 15 * MINUTE }, ...options.store }, (adapters) => ({
    paymentGateway: gateway,
    ...options.ports?.(adapters),
  }));
  const adapters = world.adapters;
  clockOf = () => world.clock.now();
  const { soup, pizza } = await withMenu(world);
  const owner = await world.storefront.registerCustomer.execute({ email: 'paula@example.com', name: 'Paula', password: 'paula-password' });
  const storefront = world.storefront;
  let events = 0;
  const place = async (key?: string): Promise<Order> =>
    (
      await storefront.placeOrder.execute({
        customerId: owner.customerId,
        items: [{ productId: soup.productId, quantity: 2 }],
        ...(key === undefined ? {} : { idempotencyKey: key }),
      })
    ).order;
  /** The provider's news as an event (a fresh event id each time, unless given). */
  const tellNews = async (news: PaymentIntentOutcome, eventId = `evt_${++events}`) => storefront.takeProviderEvent!.execute({ eventId, news: { intent: news } });
  const tellRefund = async (refund: Refund) => storefront.takeProviderEvent!.execute({ eventId: `evt_${++events}`, news: { refund } });
  /** The provider's event about the intent as it now stands. */
  const tell = async (order: Order, eventId?: string) => tellNews(await gateway.read(order.payment!.intentId), eventId);
  const pay = async (order: Order, card = 'pm_card_visa'): Promise<PaymentIntentOutcome> => gateway.confirm(order.payment!.intentId, card);
  const find = async (order: Order): Promise<Order> => (await adapters.orders.findById(order.orderId))!;
  const kitchenIds = async (): Promise<string[]> => (await storefront.listKitchenOrders.execute({})).items.map((o) => o.orderId);
  /** Placed and paid: in the kitchen. */
  const paidOrder = async (): Promise<Order> => {
    const order = await place();
    await pay(order);
    await tell(order);
    return find(order);
  };
  /** Placed, paid and accepted: captured. */
  const acceptedOrder = async (): Promise<Order> => storefront.moveOrder.execute({ orderId: (await paidOrder()).orderId, status: 'accepted' });
  /** A paid order whose acceptance captured at the provider but lost the answer: still placed, the books saying authorized. */
  const captureAnswerLost = async (): Promise<Order> => {
    const order = await paidOrder();
    loseAnswer(gateway, 'capture');
    await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' }).catch(() => undefined);
    return order;
  };
  const intentOf = async (order: Order) => (await gateway.read(order.payment!.intentId)) as IntentAmounts;
  /** Everything the provider did not answer, finished: the clock past every check, two sweeps. */
  const settle = async () => {
    world.clock.advance(3 * MINUTE);
    await storefront.paymentSweeper!.sweep();
    world.clock.advance(3 * MINUTE);
    await storefront.paymentSweeper!.sweep();
  };
  /** Settled (`settle`), then checked: the money follows the kitchen and nothing is left owed. The order as it ends. */
  const expectSettled = async (order: Order): Promise<Order> => {
    await settle();
    const now = await find(order);
    expectMoneyMatchesKitchen(now, await intentOf(order));
    expectNothingOwed(now);
    return now;
  };
  return { world, adapters, storefront, gateway, soup, pizza, owner, place, tell, tellNews, tellRefund, pay, find, kitchenIds, paidOrder, acceptedOrder, captureAnswerLost, intentOf, settle, expectSettled };
}

/** Holds a call: `reached` once it got there, `open()` lets it go on. */
function gate() {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { reached, open: () => release(), pass: async () => (arrive(), opened) };
}

type GatewayMethod = 'authorize' | 'capture' | 'cancel' | 'refund' | 'read' | 'readRefund';
type RequestOf<K extends GatewayMethod> = Parameters<InMemoryPaymentGateway[K]>[0];

/** Replaces `gateway[method]`; `around` gets each request and the original call. */
function wrap<K extends GatewayMethod>(gateway: InMemoryPaymentGateway, method: K, around: (request: RequestOf<K>, call: () => Promise<unknown>) => Promise<unknown>) {
  const inner = (gateway[method] as (r: unknown) => Promise<unknown>).bind(gateway);
  (gateway as unknown as Record<string, unknown>)[method] = (request: RequestOf<K>) => around(request, () => inner(request));
}

/** Holds the first call of `gateway[method]` matching `when` after the provider acted, before its answer goes back. */
export function holdAfter<K extends GatewayMethod>(gateway: InMemoryPaymentGateway, method: K, when: (request: RequestOf<K>) => boolean = () => true) {
  const g = gate();
  let used = false;
  wrap(gateway, method, async (request, call) => {
    const answer = await call();
    if (!used && when(request)) {
      used = true;
      await g.pass();
    }
    return answer;
  });
  return g;
}

/** Holds the first call of `gateway[method]` before it reaches the provider. */
export function holdBefore<K extends GatewayMethod>(gateway: InMemoryPaymentGateway, method: K) {
  const g = gate();
  let used = false;
  wrap(gateway, method, async (_request, call) => {
    if (!used) {
      used = true;
      await g.pass();
    }
    return call();
  });
  return g;
}

/**
 * The first call of `gateway[method]` matching `when` acts at the provider and then its answer is
 * lost (a timeout, a dropped connection): the caller sees `payment_provider_unavailable`. The
 * returned list holds what the provider had answered.
 */
export function loseAnswer<K extends GatewayMethod>(gateway: InMemoryPaymentGateway, method: K, when: (request: RequestOf<K>) => boolean = () => true) {
  const answers: unknown[] = [];
  let used = false;
  wrap(gateway, method, async (request, call) => {
    const answer = await call();
    if (!used && when(request)) {
      used = true;
      answers.push(answer);
      throw new DomainError('payment_provider_unavailable', 'The payment provider did not answer in time.', { retryAfterSeconds: 5 });
    }
    return answer;
  });
  return answers;
}

/** What the kitchen still cooks: the money it captured must stay with it. */
const COOKED = ['accepted', 'preparing', 'ready', 'completed'];

/** The order's books agree with the provider's money (pending refunds count, once the provider acted on them). */
export function expectBooksMatchProvider(order: Order, intent: IntentAmounts) {
  const provider = { captured: intent.amountCaptured ?? 0, refunded: intent.amountRefunded ?? 0 };
  const books = { captured: order.payment!.amountCaptured, refunded: order.payment!.amountRefunded };
  expect(books, `the order's books (${order.status}, payment ${order.payment!.status}) against the provider's (${intent.status})`).to.deep.equal(provider);
}

/**
 * The books agree with the provider, and with what the kitchen does: an order it cooks keeps its
 * capture; one it does not has everything captured given back.
 */
export function expectMoneyMatchesKitchen(order: Order, intent: IntentAmounts) {
  expectBooksMatchProvider(order, intent);
  const provider = { captured: intent.amountCaptured ?? 0, refunded: intent.amountRefunded ?? 0 };
  if (COOKED.includes(order.status)) expect(provider.refunded, 'an order the kitchen cooks keeps its capture').to.equal(0);
  else expect(provider.refunded, `a ${order.status} order has its capture given back`).to.equal(provider.captured);
}

/** Nothing is owed and left without a check: no void owed, no refund pending. */
export function expectNothingOwed(order: Order) {
  const payment = order.payment!;
  const final = order.status === 'rejected' || order.status === 'cancelled';
  expect(final && (payment.status === 'awaiting' || payment.status === 'authorized'), 'a void still owed').to.equal(false);
  expect(payment.refunds.filter((r) => r.status === 'pending').map((r) => r.refundId), 'refunds still pending').to.deep.equal([]);
  expect(payment.checkAt, 'no check left').to.equal(null);
}
