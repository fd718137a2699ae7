/**
 * An erasure cut short by a crash is finished by the next instance (DECISIONS "Accounts", issue 32
 * item 3), on real stores: one storefront's erasure stops after its mark and a few steps (a fault in
 * a later step, and no retry task: the process is gone), then a fresh storefront on the same stores
 * sweeps at its start and everything personal is gone.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { CustomerRepository, OrderEventLog, PendingErasures, OrderRepository, PasswordResetTokenStore, SessionStore, WebhookDeliveryStore } from '@storefront/domain';
import { createStorefront } from '@storefront/domain';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { aCustomer, anOrder, aSession, uniqueSuffix } from '../builders.js';
import { FakeClock } from '../fake-clock.js';
import { Faults, InjectedFault } from '../faults/faulty.js';
import { aWebhookEvent } from '../webhook-builders.js';
import { readAllEvents } from './order-event-log-support.js';

/** The stores an erasure touches, shared by the two storefronts as instances share them. */
export interface ErasureStores {
  readonly customers: CustomerRepository;
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  readonly resetTokens: PasswordResetTokenStore;
  readonly orders: OrderRepository;
  readonly events: OrderEventLog;
  readonly webhookDeliveries: WebhookDeliveryStore;
}

const ADDRESS = { line1: 'Crashweg 5', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring at Crash-Erased' };

/** The ports an erasure never touches. */
const notUsed = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('not used by an erasure');
    },
  },
) as never;
/** The password was checked when asked: these tests are about the stores. */
const anyPassword = { hash: async () => 'hash', verify: async () => true, needsRehash: () => false };
const noLimit = {
  consume: async () => ({ allowed: true, limit: 1, remaining: 1, resetMs: 0, retryAfterMs: 0 }),
  peek: async () => ({ allowed: true, limit: 1, remaining: 1, resetMs: 0, retryAfterMs: 0 }),
};

function aStorefront(stores: ErasureStores, clock: FakeClock, background: { maxPending?: number; onError?: (error: unknown) => void } = {}) {
  return createStorefront(
    { ...stores, clock, idempotencyKeys: notUsed, orderOutbox: notUsed, menu: notUsed, storeState: notUsed, tokens: notUsed, hasher: anyPassword, limiter: noLimit, webhookEndpoints: notUsed },
    { background, webhooks: { payload: (event) => event.order ?? null } },
  );
}

export function describeErasureCrashContract(name: string, factory: () => Promise<ErasureStores>): void {
  describe(`${name} (an erasure cut short by a crash)`, () => {
    it('is finished by the sweep of a fresh storefront on the same stores', async () => {
      const stores = await factory();
      const clock = new FakeClock(Date.now());
      const customer = aCustomer();
      await stores.customers.create(customer);
      const session = aSession({ customerId: customer.customerId, createdAt: clock.now(), expiresAt: new Date(clock.now().getTime() + 3_600_000) });
      await stores.sessions.create(session);
      const order = anOrder({ customerId: customer.customerId, fulfilment: { type: 'delivery', time: 'asap', promisedAt: clock.now(), address: ADDRESS, zone: 'Centre' } });
      await stores.orders.insert(order);
      await stores.events.append([eventOfVersion(order, 1)]);
      const eventId = `evt_${order.orderId}_1`;
      const webhookId = `whk_crash${uniqueSuffix()}`;
      await stores.webhookDeliveries.enqueue(aWebhookEvent({ eventId, type: 'order.placed', orderId: order.orderId, payload: JSON.stringify(order) }), [webhookId]);

      // The first instance "dies" in the event log's step: no retry task may start (maxPending 0).
      const events = new Faults(stores.events);
      events.fail('eraseDeliveryAddresses', 'before');
      const dying = aStorefront({ ...stores, events: events.target }, clock, { maxPending: 0, onError: () => undefined });
      const caller = { customer, claims: { sub: customer.customerId, sid: session.sessionId, exp: 0 } };
      const failed = await dying.eraseAccount.execute({ caller, password: 'the-password', client: 'test' }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).to.be.instanceOf(InjectedFault);
      expect(dying.background.size, 'no retry task runs').to.equal(0);
      expect(await stores.customers.findById(customer.customerId), 'the account reads as gone').to.equal(null);
      expect(await stores.customers.findByEmail(customer.email), 'no login finds it').to.equal(null);
      expect(JSON.stringify(await readAllEvents(stores.events)), 'the step that failed').to.contain(ADDRESS.line1);

      const reported: unknown[] = [];
      const fresh = aStorefront(stores, clock, { onError: (error) => reported.push(error) });
      fresh.erasureSweep.start();
      fresh.erasureSweep.stop();
      await fresh.background.settled();

      expect(reported).to.deep.equal([]);
      expect(await stores.pendingErasures.list(1000), 'the mark went with the record').not.to.include(customer.customerId);
      expect((await stores.sessions.findById(session.sessionId))?.revokedAt, 'the session').not.to.equal(null);
      expect((await stores.orders.findById(order.orderId))?.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: order.fulfilment.promisedAt, zone: 'Centre' });
      expect(JSON.stringify(await readAllEvents(stores.events)), 'the event log').to.contain(order.orderId).and.not.to.contain(ADDRESS.line1);
      const [delivery] = (await stores.webhookDeliveries.list(webhookId, { page: 1, limit: 10 })).items;
      expect(delivery?.payload, 'the stored webhook delivery').to.contain(order.orderId).and.not.to.contain(ADDRESS.line1);
      // The record is gone: its email signs up again as a new account.
      await stores.customers.create(aCustomer({ email: customer.email }));
    });
  });
}
