import { anOrder, describeKeyedOrderWritesContract, uniqueSuffix } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { PostgresKeyedOrderWrites } from '../src/postgres-keyed-order-writes.js';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresKeyedOrderWrites', () => {
  const { adapters, database } = usePostgresAdapters('storefront_pg_keyed');
  describeKeyedOrderWritesContract('PostgresKeyedOrderWrites', async () => adapters());

  it('sweeps long-expired keys on the first placement of every 32, up to 10 for each, never a live one', async () => {
    const pool = database().pool;
    const customerId = `cus_${uniqueSuffix()}`;
    await pool.query(
      `INSERT INTO idempotency_keys (customer_id, key, state, fingerprint, owner, order_id, order_created_at, lock_expires_at, expires_at)
       SELECT $1, (CASE WHEN g <= 400 THEN 'expired-' ELSE 'live-' END) || g, 'completed', 'f', 'o', 'ord_swept_' || g, now(), now(),
              CASE WHEN g <= 400 THEN now() - interval '2 hours' ELSE now() + interval '1 day' END
         FROM generate_series(1, 405) AS g`,
      [customerId],
    );
    const left = async () =>
      (await pool.query<{ expired: string; live: string }>(
        `SELECT count(*) FILTER (WHERE key LIKE 'expired-%') AS expired, count(*) FILTER (WHERE key LIKE 'live-%') AS live FROM idempotency_keys WHERE customer_id = $1`,
        [customerId],
      )).rows[0]!;
    const writes = new PostgresKeyedOrderWrites(pool);
    const place = async () => {
      const now = new Date();
      const order = anOrder({ customerId, createdAt: now });
      const claim = { customerId, key: `key-${uniqueSuffix()}`, fingerprint: 'f', owner: 'o', orderId: order.orderId, orderCreatedAt: now, lockExpiresAt: new Date(now.getTime() + 60_000), expiresAt: new Date(now.getTime() + 86_400_000) };
      expect(await writes.placeFresh(claim, order, now)).to.equal('placed');
    };
    await place();
    expect(await left()).to.deep.equal({ expired: '80', live: '5' });
    for (let placement = 2; placement <= 32; placement++) await place();
    expect(await left()).to.deep.equal({ expired: '80', live: '5' });
    await place();
    expect(await left()).to.deep.equal({ expired: '0', live: '5' });
  });
});
