/**
 * Keyed order placement under failure: each case of the table in docs/decisions.md ("Idempotent
 * order placement") injected at the OrderRepository and IdempotencyKeys boundaries of a real adapter, with the domain's
 * PlaceOrder on top. Whatever fails, a key stores exactly one order, and a retry with the same key
 * and body gets that order.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { IdempotencyKeys, MenuRepository, OrderRepository, PlaceOrderResult, StoreStateRepository } from '@storefront/domain';
import { createStorefront, isDomainError } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';
import { expectDomainError, rejectionOf, sleep } from '../assertions.js';
import { aProductDraft, uniqueSuffix } from '../builders.js';
import { FakeClock } from '../fake-clock.js';
import { Faults, InjectedFault } from '../faults/faulty.js';

/** The adapters a placement needs; the suite wraps `orders`, `idempotencyKeys` (and `menu`, to stall pricing). */
export interface PlacementAdapters {
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly menu: MenuRepository;
}

const LOCK_SECONDS = 60;

/** The ports a placement never touches (customers, sessions, limiter, hashing, tokens). */
const notUsed = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('not used by order placement');
    },
  },
) as never;

/** A store that always takes orders: these tests are about the order store. */
const openStore: StoreStateRepository = {
  get: () => Promise.resolve(DEFAULT_STORE_STATE),
  setAcceptingOrders: () => Promise.reject(new Error('not used')),
};

export function orderPlacementFaultsContract(factory: () => Promise<PlacementAdapters>): void {
  /** One customer, one product, a PlaceOrder over the wrapped stores, a clock the test moves. */
  async function world() {
    const stores = await factory();
    const orders = new Faults(stores.orders);
    const keys = new Faults(stores.idempotencyKeys);
    const menu = new Faults(stores.menu);
    // Real time as the start: a store's TTL monitor must not see the records as long expired.
    const clock = new FakeClock(Date.now());
    const instance = () =>
      createStorefront(
        { menu: menu.target, orders: orders.target, idempotencyKeys: keys.target, orderOutbox: notUsed, clock, storeState: openStore, events: notUsed, customers: notUsed, pendingErasures: notUsed, sessions: notUsed, resetTokens: notUsed, limiter: notUsed, hasher: notUsed, tokens: notUsed },
        { orders: { idempotencyLockSeconds: LOCK_SECONDS } },
      ).placeOrder;
    // `elsewhere`: another instance on the same stores, or this one restarted after a crash.
    const [placeOrder, elsewhere] = [instance(), instance()];
    const [product] = await stores.menu.upsertByName([aProductDraft()]);
    const customerId = `cus_${uniqueSuffix()}`;
    const key = `key-${uniqueSuffix()}`;
    const body = [{ productId: product!.productId, quantity: 2 }];
    const place = (items = body): Promise<PlaceOrderResult> => placeOrder.execute({ customerId, items, idempotencyKey: key });
    const placeElsewhere = (): Promise<PlaceOrderResult> => elsewhere.execute({ customerId, items: body, idempotencyKey: key });
    const placeAnother = (): Promise<PlaceOrderResult> => placeOrder.execute({ customerId, items: body, idempotencyKey: `${key}-another` });
    const stored = async () => (await stores.orders.listByCustomer(customerId, { page: 1, limit: 100 })).items;
    const pastTheLock = () => clock.advance(LOCK_SECONDS * 1000 + 1);
    // The kitchen's 86, not a menu import: an import keeps the availability of a dish it finds
    // (DECISIONS, "Restarts never undo the kitchen's changes").
    const setAvailable = (available: boolean) => stores.menu.setAvailability(product!.productId, available);
    return { orders, keys, menu, clock, place, placeElsewhere, placeAnother, stored, pastTheLock, setAvailable, product: product!, body };
  }

  describe('the request dies after its order is stored', () => {
    it('answers retries 409 while the lock lasts, then replays the stored order', async () => {
      const w = await world();
      // Nothing after the insert reaches the store: what a crash leaves behind.
      w.keys.fail('complete', 'before').fail('abandon', 'before');
      const first = await w.place();
      // The instance is gone: its retries come to another one (or to it, restarted).
      await expectDomainError(w.placeElsewhere(), 'idempotency_key_in_use');
      w.pastTheLock();
      // The menu has changed since: the order stored is still the answer, not a new pricing.
      await w.setAvailable(false);
      const retry = await w.placeElsewhere();
      expect(retry).to.deep.equal({ order: first.order, replayed: true });
      expect(await w.stored()).to.deep.equal([first.order]);
    });
  });

  describe("the claim's completion fails", () => {
    it('still answers the stored order, and a retry replays it at once', async () => {
      const w = await world();
      w.keys.fail('complete', 'before');
      const first = await w.place();
      expect(first.replayed).to.equal(false);
      expect(await w.place()).to.deep.equal({ order: first.order, replayed: true });
      expect(await w.stored()).to.deep.equal([first.order]);
    });

    it('replays the order when the completion was applied but its acknowledgement lost', async () => {
      const w = await world();
      w.keys.fail('complete', 'after');
      const first = await w.place();
      expect(await w.place()).to.deep.equal({ order: first.order, replayed: true });
      expect(await w.stored()).to.have.length(1);
    });
  });

  describe("the insert's acknowledgement is lost", () => {
    it('fails the request, and an immediate retry replays the order that was stored', async () => {
      const w = await world();
      w.orders.fail('insert', 'after');
      expect(await rejectionOf(w.place())).to.be.instanceOf(InjectedFault);
      const retry = await w.place();
      expect(retry.replayed).to.equal(true);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });

    it('replays it after the lock when the store could not even be told the lock ended', async () => {
      const w = await world();
      w.orders.fail('insert', 'after');
      w.keys.fail('abandon', 'before');
      await rejectionOf(w.place());
      await expectDomainError(w.placeElsewhere(), 'idempotency_key_in_use');
      w.pastTheLock();
      const retry = await w.placeElsewhere();
      expect(retry.replayed).to.equal(true);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });

    it('places the order on retry when the failed insert never reached the store', async () => {
      const w = await world();
      w.orders.fail('insert', 'before');
      await rejectionOf(w.place());
      const retry = await w.place();
      expect(retry.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([retry.order]);
      expect(await w.place()).to.deep.equal({ order: retry.order, replayed: true });
    });
  });

  describe('the request ends while the store cannot be told (an outage)', () => {
    it('lets a retry on the same instance take the claim over at once and place the order once', async () => {
      const w = await world();
      w.orders.fail('insert', 'before');
      w.keys.fail('abandon', 'before');
      expect(await rejectionOf(w.place())).to.be.instanceOf(InjectedFault);
      const retry = await w.place();
      expect(retry.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([retry.order]);
      expect(await w.placeElsewhere()).to.deep.equal({ order: retry.order, replayed: true });
    });

    it('answers at once a retry of a claim stored with its acknowledgement lost', async () => {
      const w = await world();
      w.keys.fail('claim', 'after');
      expect(await rejectionOf(w.place())).to.be.instanceOf(InjectedFault);
      const retry = await w.place();
      expect(retry.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });

    it('replays at once an order stored before the store went away', async () => {
      const w = await world();
      w.orders.fail('insert', 'after');
      w.keys.fail('abandon', 'before');
      await rejectionOf(w.place());
      const retry = await w.place();
      expect(retry.replayed).to.equal(true);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });

    it('ends the lock when the store answers again, so that a retry on any instance is answered', async () => {
      const w = await world();
      w.orders.fail('insert', 'after');
      w.keys.fail('abandon', 'before');
      await rejectionOf(w.place());
      await expectDomainError(w.placeElsewhere(), 'idempotency_key_in_use');
      // Any placement of this instance that reaches the store tells it that the store is back.
      await w.placeAnother();
      let retry: PlaceOrderResult | undefined;
      for (let i = 0; i < 100 && retry === undefined; i++) {
        retry = await w.placeElsewhere().catch((error: unknown) => {
          if (!isDomainError(error, 'idempotency_key_in_use')) throw error;
          return undefined;
        });
        if (retry === undefined) await sleep(20);
      }
      expect(retry?.replayed).to.equal(true);
      expect((await w.stored()).filter((o) => o.orderId === retry!.order.orderId)).to.have.length(1);
      expect(await w.stored()).to.have.length(2);
    });

    it('still answers 409 to a retry while the first request is running', async () => {
      const w = await world();
      w.orders.fail('insert', 'before');
      w.keys.fail('abandon', 'before');
      await rejectionOf(w.place());
      const gate = w.orders.hold('insert');
      const running = w.place();
      await gate.reached;
      await expectDomainError(w.place(), 'idempotency_key_in_use');
      gate.open();
      const placed = await running;
      expect(await w.stored()).to.deep.equal([placed.order]);
    });
  });

  describe('the lock expires and another request takes over', () => {
    it('gives both requests the one order when the late request stores first', async () => {
      const w = await world();
      const gate = w.orders.hold('insert');
      const slow = w.place();
      await gate.reached;
      w.pastTheLock();
      const takeover = w.orders.hold('insert');
      const second = w.place();
      await takeover.reached;
      gate.open();
      const first = await slow;
      takeover.open();
      const other = await second;
      expect(other.order).to.deep.equal(first.order);
      expect([first.replayed, other.replayed]).to.deep.equal([false, true]);
      expect(await w.stored()).to.deep.equal([first.order]);
    });

    it('gives both requests the one order when the takeover stores first', async () => {
      const w = await world();
      const gate = w.orders.hold('insert');
      const slow = w.place();
      await gate.reached;
      w.pastTheLock();
      const second = await w.place();
      expect(second.replayed).to.equal(false);
      gate.open();
      expect(await slow).to.deep.equal({ order: second.order, replayed: true });
      expect(await w.stored()).to.deep.equal([second.order]);
      expect(await w.place()).to.deep.equal({ order: second.order, replayed: true });
    });

    it('does not let the late request free the key that the takeover holds', async () => {
      const w = await world();
      const pricing = w.menu.hold('findByIds');
      const slow = w.place();
      await pricing.reached;
      w.pastTheLock();
      const insert = w.orders.hold('insert');
      // The second request also fails to complete its claim, so the record stays in flight.
      w.keys.fail('complete', 'before').fail('abandon', 'before');
      const second = w.place();
      await insert.reached;
      // The late request now finds the product gone and gives its claim up: it must change nothing.
      await w.setAvailable(false);
      pricing.open();
      await expectDomainError(slow, 'product_unavailable');
      await w.setAvailable(true);
      insert.open();
      const placed = await second;
      w.pastTheLock();
      expect(await w.place()).to.deep.equal({ order: placed.order, replayed: true });
      expect(await w.stored()).to.deep.equal([placed.order]);
    });
  });

  describe('two bodies race on one key', () => {
    it('stores one order; the other body is refused, never placed', async () => {
      const w = await world();
      const other = [{ productId: w.product.productId, quantity: 3 }];
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => w.place(i % 2 === 0 ? w.body : other)));
      const placed = results.flatMap((r) => (r.status === 'fulfilled' && !r.value.replayed ? [r.value.order] : []));
      expect(placed).to.have.length(1);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(isDomainError(r.reason, 'idempotency_key_in_use') || isDomainError(r.reason, 'idempotency_key_reused'), String(r.reason)).to.equal(true);
        }
      }
      expect(await w.stored()).to.deep.equal(placed);
      const winner = placed[0]!.items[0]!.quantity === 2 ? w.body : other;
      const loser = winner === w.body ? other : w.body;
      await expectDomainError(w.place(loser), 'idempotency_key_reused');
      expect(await w.place(winner)).to.deep.equal({ order: placed[0], replayed: true });
    });

    it('refuses another body after the lock has expired instead of taking the claim over', async () => {
      const w = await world();
      w.orders.fail('insert', 'after');
      w.keys.fail('abandon', 'before');
      await rejectionOf(w.place());
      w.pastTheLock();
      await expectDomainError(w.place([{ productId: w.product.productId, quantity: 5 }]), 'idempotency_key_reused');
      const retry = await w.place();
      expect(retry.replayed).to.equal(true);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });
  });

  describe('nothing was written under the claim', () => {
    it('frees the key, so a corrected body can use it', async () => {
      const w = await world();
      await w.setAvailable(false);
      await expectDomainError(w.place(), 'product_unavailable');
      await w.setAvailable(true);
      const corrected = await w.place([{ productId: w.product.productId, quantity: 1 }]);
      expect(corrected.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([corrected.order]);
    });
  });
}
