/**
 * Erasures cut short by a crash, on PostgreSQL (DECISIONS "Accounts", issue 32 item 3): the shared
 * scenario on the PostgreSQL stores (the event log in process, as Redis would share it), and the
 * service itself sweeping at start: an account left marked by a process that died is erased by the
 * next instance, with no request. On a throwaway database of the machine's PostgreSQL.
 */
import { generateSigningKey } from '@storefront/adapters-crypto';
import { InMemoryOrderEventLog } from '@storefront/adapters-memory';
import { createPostgresAdapters, migrate, type PostgresAdapters } from '@storefront/adapters-postgres';
import { aCustomer, anOrder, describeErasureCrashContract, usePostgresTestDatabase } from '@storefront/testing';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { startStorefront } from '../../src/server.js';
import { sleep } from '../e2e/support.js';

const ADDRESS = { line1: 'Neustartstraße 1', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132 };

describe('PostgreSQL: erasures cut short by a crash', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase('storefront_erasure');
  let adapters: PostgresAdapters;
  before(async () => {
    await migrate(database().pool);
    adapters = await createPostgresAdapters({ pool: database().pool });
  });

  describeErasureCrashContract('PostgreSQL stores', async () => ({ ...adapters, events: new InMemoryOrderEventLog() }));

  it('are finished by a newly started instance, with no request', async () => {
    // What a process that died after the mark leaves: a marked account, an order with its address.
    const customer = aCustomer();
    await adapters.customers.create(customer);
    const order = anOrder({ customerId: customer.customerId, fulfilment: { type: 'delivery', time: 'asap', promisedAt: new Date(), address: ADDRESS, zone: 'Centre' } });
    await adapters.orders.insert(order);
    expect(await adapters.pendingErasures.mark(customer.customerId, new Date())).to.equal(true);

    const running = await startStorefront(
      { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10', STOREFRONT_STORE: 'postgres', DATABASE_URL: database().url, TOKEN_SECRET_KEY: generateSigningKey() },
    );
    try {
      await running.ready;
      const deadline = Date.now() + 20_000;
      while ((await adapters.pendingErasures.list(1000)).includes(customer.customerId)) {
        if (Date.now() > deadline) expect.fail('the instance did not finish the erasure at start');
        await sleep(50);
      }
    } finally {
      await running.close();
    }
    expect((await adapters.orders.findById(order.orderId))?.fulfilment).to.deep.equal({ type: 'delivery', time: 'asap', promisedAt: order.fulfilment.promisedAt, zone: 'Centre' });
    await adapters.customers.create(aCustomer({ email: customer.email }));
  });
});
