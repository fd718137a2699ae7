import { anUnpaidOrder, describeOrderPaymentsContract, randomHex } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresOrderPayments', () => {
  const { adapters } = usePostgresAdapters('storefront_pg_payments');
  describeOrderPaymentsContract('PostgresOrderPayments', async () => ({ orders: adapters().orders, payments: adapters().orderPayments }));

  it("places a fresh key's awaiting order with its payment, in the claim's one statement", async () => {
    const { keyedOrderWrites, orders, orderPayments } = adapters();
    const order = anUnpaidOrder();
    const at = order.createdAt;
    const claim = {
      customerId: order.customerId,
      key: `key-${randomHex(8)}`,
      fingerprint: 'f',
      owner: randomHex(8),
      orderId: order.orderId,
      orderCreatedAt: at,
      lockExpiresAt: new Date(at.getTime() + 30_000),
      expiresAt: new Date(at.getTime() + 86_400_000),
    };
    expect(await keyedOrderWrites.placeFresh(claim, order, at)).to.equal('placed');
    expect(await orders.findById(order.orderId)).to.deep.equal(order);
    expect(await orderPayments.findByIntent(order.payment!.intentId)).to.deep.equal(order);
  });

  it('claims nothing for a limit below one, without asking the database to', async () => {
    const now = new Date('1900-01-01T00:00:00Z');
    expect(await adapters().orderPayments.claimChecks(now, now, 0)).to.deep.equal([]);
    expect(await adapters().orderPayments.claimChecks(now, now, -1)).to.deep.equal([]);
  });
});
