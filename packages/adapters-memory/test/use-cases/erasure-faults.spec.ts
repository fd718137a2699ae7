/**
 * An erasure interrupted by a fault is finished by the service itself (DECISIONS "Accounts", issue
 * 32 item 3): the request fails, and a background task runs every step again until the account's
 * record, the last step, is gone, with nothing personal left in the orders, the event log or the
 * stored webhook deliveries. Faults at the adapters' boundary (packages/testing/src/faults).
 */
import type { CustomerRepository, OrderEventLog, OrderRepository } from '@storefront/domain';
import { eventOfVersion } from '@storefront/domain/adapter-kit';
import { anOrder, aWebhookEvent, expectDomainError, Faults, InjectedFault, readAllEvents } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { aLoggedInCustomer, aWorld } from './world.js';

const ADDRESS = { line1: 'Faultline 3', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Knock twice' };

async function anErasure() {
  const reported: { error: unknown; task: string }[] = [];
  const faults = { customers: null as unknown as Faults<CustomerRepository>, orders: null as unknown as Faults<OrderRepository>, events: null as unknown as Faults<OrderEventLog> };
  const base = aWorld();
  faults.customers = new Faults(base.adapters.customers);
  faults.orders = new Faults(base.adapters.orders);
  faults.events = new Faults(base.adapters.events);
  const world = aWorld(
    { background: { onError: (error, task) => reported.push({ error, task }) }, webhooks: { payload: (event) => event.order ?? null } },
    { ...base.adapters, customers: faults.customers.target, orders: faults.orders.target, events: faults.events.target },
  );
  const { profile, pair, password } = await aLoggedInCustomer(world);
  const order = anOrder({ customerId: profile.customerId, fulfilment: { type: 'delivery', time: 'asap', promisedAt: new Date(), address: ADDRESS, zone: 'Centre' } });
  await base.adapters.orders.insert(order);
  await base.adapters.events.append([eventOfVersion(order, 1)]);
  const eventId = `evt_${order.orderId}_1`;
  const webhookId = 'whk_erasurefaults0000000';
  await base.adapters.webhookDeliveries.enqueue(aWebhookEvent({ eventId, type: 'order.placed', orderId: order.orderId, payload: JSON.stringify(order) }), [webhookId]);
  const caller = await world.storefront.authenticate.execute(pair.accessToken);
  const erase = () => world.storefront.eraseAccount.execute({ caller, password, client: 'test' });

  /** Everything the erasure must have removed is gone. */
  const expectErased = async () => {
    expect(await base.adapters.customers.findById(profile.customerId), 'the account record').to.equal(null);
    expect((await base.adapters.orders.findById(order.orderId))?.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: order.fulfilment.promisedAt, zone: 'Centre' });
    expect(JSON.stringify(await readAllEvents(base.adapters.events)), 'the event log').not.to.contain(ADDRESS.line1);
    const [delivery] = (await base.adapters.webhookDeliveries.list(webhookId, { page: 1, limit: 10 })).items;
    expect(delivery?.payload, 'the stored webhook delivery').to.contain(order.orderId).and.not.to.contain(ADDRESS.line1);
  };
  return { world, base, faults, reported, profile, erase, expectErased };
}

describe('Accounts: an erasure interrupted by a fault', function () {
  this.timeout(10_000);

  it('is finished by the service when a step fails before the account record goes', async () => {
    const s = await anErasure();
    s.faults.events.fail('eraseDeliveryAddresses', 'before');
    const failed = await s.erase().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).to.be.instanceOf(InjectedFault);
    expect(await s.base.adapters.pendingErasures.list(10), 'the record, and its mark, go last').to.include(s.profile.customerId);
    await s.world.storefront.background.settled();
    await s.expectErased();
    expect(s.reported).to.deep.equal([]);
  });

  it('is finished when the record was deleted but the answer lost, and when a step keeps failing for a while', async () => {
    const s = await anErasure();
    s.faults.customers.fail('delete', 'after');
    s.faults.orders.fail('eraseDeliveryAddresses', 'before');
    await s.erase().then(
      () => expect.fail('the erasure answered as done'),
      (error: unknown) => expect(error).to.be.instanceOf(InjectedFault),
    );
    await s.world.storefront.background.settled();
    await s.expectErased();
    expect(s.reported).to.deep.equal([]);
  });

  it('answers for an account being erased as for a deleted one: no login (after the same hash), refresh or token', async () => {
    const s = await anErasure();
    const { pair, email, password } = await aLoggedInCustomer(s.world, 'second@example.com', 'second-password');
    const customerId = (await s.base.adapters.customers.findByEmail(email))!.customerId;
    // What a process that died right after the first step leaves.
    expect(await s.base.adapters.pendingErasures.mark(customerId, s.world.clock.now())).to.equal(true);
    const verified = s.world.hasher.verifications;
    await expectDomainError(s.world.storefront.login.execute({ email, password, client: 'test' }), 'invalid_credentials');
    expect(s.world.hasher.verifications - verified, 'a password hash checked, as for an unknown email').to.equal(1);
    await expectDomainError(s.world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'invalid_token');
    await expectDomainError(s.world.storefront.authenticate.execute(pair.accessToken), 'invalid_token');
  });
});
