/**
 * A store's KeyedOrderWrites (a fresh key's claim, order and completion in one write) under the
 * domain's PlaceOrder, with faults injected at its boundary: whatever fails, a key stores exactly
 * one order, a retry with the same key and body gets that order, and every other case of the
 * idempotency table (a key in flight, another body, a refused order) answers as step by step.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { IdempotencyKeys, MenuRepository, OrderRepository, PlaceOrderResult, StoreStateRepository } from '@storefront/domain';
import type { KeyedOrderWrites } from '@storefront/domain/adapter-kit';
import { createStorefront } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';
import { expectDomainError, rejectionOf } from '../assertions.js';
import { aProductDraft, uniqueSuffix } from '../builders.js';
import { FakeClock } from '../fake-clock.js';
import { Faults, InjectedFault } from '../faults/faulty.js';

export interface KeyedWriteAdapters {
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly menu: MenuRepository;
  readonly keyedOrderWrites: KeyedOrderWrites;
}

const notUsed = new Proxy({}, { get: () => () => Promise.reject(new Error('not used by order placement')) }) as never;
const openStore: StoreStateRepository = { get: () => Promise.resolve(DEFAULT_STORE_STATE), setAcceptingOrders: () => Promise.reject(new Error('not used')) };

export function describeKeyedOrderWritesContract(name: string, factory: () => Promise<KeyedWriteAdapters>): void {
  async function world() {
    const stores = await factory();
    const writes = new Faults(stores.keyedOrderWrites);
    const keys = new Faults(stores.idempotencyKeys);
    const menu = new Faults(stores.menu);
    const clock = new FakeClock(Date.now());
    const ports = {
      ...{ menu: menu.target, orders: stores.orders, idempotencyKeys: keys.target, orderOutbox: notUsed, clock, storeState: openStore },
      ...{ events: notUsed, customers: notUsed, pendingErasures: notUsed, sessions: notUsed, resetTokens: notUsed, limiter: notUsed, hasher: notUsed, tokens: notUsed },
    };
    const placeOrder = createStorefront({ ...ports, keyedOrderWrites: writes.target }).placeOrder;
    // An instance whose store writes step by step (or one of an older version) on the same stores.
    const stepByStep = createStorefront(ports).placeOrder;
    const [product] = await stores.menu.upsertByName([aProductDraft()]);
    const customerId = `cus_${uniqueSuffix()}`;
    const key = `key-${uniqueSuffix()}`;
    const body = [{ productId: product!.productId, quantity: 2 }];
    const place = (items = body): Promise<PlaceOrderResult> => placeOrder.execute({ customerId, items, idempotencyKey: key });
    const placeStepByStep = (): Promise<PlaceOrderResult> => stepByStep.execute({ customerId, items: body, idempotencyKey: key });
    const stored = async () => (await stores.orders.listByCustomer(customerId, { page: 1, limit: 100 })).items;
    return { stores, writes, keys, menu, place, placeStepByStep, stored, product: product! };
  }

  describe(`${name} (KeyedOrderWrites under PlaceOrder)`, () => {
    it('places a fresh key in one write, and replays it', async () => {
      const w = await world();
      w.keys.down('claim');
      const first = await w.place();
      expect(first.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([first.order]);
      w.keys.heal();
      expect(await w.place()).to.deep.equal({ order: first.order, replayed: true });
      expect(await w.stored()).to.have.length(1);
    });

    it('stores nothing when the write fails before the store, and a retry places the order once', async () => {
      const w = await world();
      w.writes.fail('placeFresh', 'before');
      expect(await rejectionOf(w.place())).to.be.instanceOf(InjectedFault);
      expect(await w.stored()).to.deep.equal([]);
      const retry = await w.place();
      expect(retry.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([retry.order]);
    });

    it('replays the stored order at once when the write was applied but its acknowledgement lost', async () => {
      const w = await world();
      w.writes.fail('placeFresh', 'after');
      await rejectionOf(w.place());
      const [order] = await w.stored();
      expect(order).to.not.equal(undefined);
      expect(await w.place()).to.deep.equal({ order, replayed: true });
      expect(await w.stored()).to.have.length(1);
    });

    it('answers 409 while a step-by-step request holds the key, and the first then stores the one order', async () => {
      const w = await world();
      const gate = w.menu.hold('findByIds');
      const first = w.placeStepByStep();
      await gate.reached;
      await expectDomainError(w.place(), 'idempotency_key_in_use');
      expect(await w.stored()).to.deep.equal([]);
      gate.open();
      const placed = await first;
      expect(await w.place()).to.deep.equal({ order: placed.order, replayed: true });
      expect(await w.stored()).to.deep.equal([placed.order]);
    });

    it('refuses another body on a placed key with idempotency_key_reused', async () => {
      const w = await world();
      await w.place();
      await expectDomainError(w.place([{ productId: w.product.productId, quantity: 5 }]), 'idempotency_key_reused');
      expect(await w.stored()).to.have.length(1);
    });

    it('leaves the key free when the order is refused, so a corrected body can use it', async () => {
      const w = await world();
      await w.stores.menu.setAvailability(w.product.productId, false);
      await expectDomainError(w.place(), 'product_unavailable');
      await w.stores.menu.setAvailability(w.product.productId, true);
      const corrected = await w.place([{ productId: w.product.productId, quantity: 1 }]);
      expect(corrected.replayed).to.equal(false);
      expect(await w.stored()).to.deep.equal([corrected.order]);
    });

    it('makes one order of one key sent twice at once', async () => {
      const w = await world();
      const answers = await Promise.allSettled([w.place(), w.place()]);
      const orders = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.order.orderId] : []));
      expect(orders.length).to.be.at.least(1);
      expect(new Set(orders).size).to.equal(1);
      for (const a of answers) if (a.status === 'rejected') expect((a.reason as { code?: string }).code).to.equal('idempotency_key_in_use');
      expect(await w.stored()).to.have.length(1);
    });
  });
}
