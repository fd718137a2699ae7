import { describeOrderPaymentsContract } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresOrderPayments', () => {
  const { adapters } = usePostgresAdapters('storefront_pg_payments');
  describeOrderPaymentsContract('PostgresOrderPayments', async () => ({ orders: adapters().orders, payments: adapters().orderPayments }));

  it('claims nothing for a limit below one, without asking the database to', async () => {
    const now = new Date('1900-01-01T00:00:00Z');
    expect(await adapters().orderPayments.claimChecks(now, now, 0)).to.deep.equal([]);
    expect(await adapters().orderPayments.claimChecks(now, now, -1)).to.deep.equal([]);
  });
});
