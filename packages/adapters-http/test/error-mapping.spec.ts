import type { DomainErrorCode, MenuRepository, OrderRepository } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { loginAs, serve, type TestServer } from './support.js';
import { Faults } from '@storefront/testing';

/**
 * Every domain code with the status DECISIONS gives it, written out here rather than read from the
 * table under test (a wrong row in the table must fail this test).
 */
const EXPECTED_STATUS: Readonly<Record<DomainErrorCode, number>> = {
  validation_failed: 400,
  invalid_reset_token: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  account_disabled: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  idempotency_key_in_use: 409,
  invalid_transition: 409,
  precondition_failed: 412,
  store_closed: 422,
  invalid_options: 422,
  slot_unavailable: 422,
  delivery_unavailable: 422,
  outside_delivery_area: 422,
  below_minimum_order: 422,
  unknown_product: 422,
  product_unavailable: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  database_unavailable: 500,
  service_unavailable: 503,
  payment_provider_unavailable: 503,
  payment_failed: 422,
  refund_exceeds_captured: 422,
};

describe('HTTP error mapping', () => {
  describe('a domain error raised by a use case', () => {
    for (const [code, status] of Object.entries(EXPECTED_STATUS) as [DomainErrorCode, number][]) {
      it(`answers ${status !== 500 ? status : '500 internal_error'} for ${code}`, async () => {
        const server = await serveWithFailingMenu(() => new DomainError(code, `secret-${code}`));
        try {
          const res = await fetch(`${server.url}/api/products`);
          const body = (await res.json()) as Record<string, unknown>;
          expect(res.status).to.equal(status);
          expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
          expect(body['error']).to.equal(status !== 500 ? code : 'internal_error');
          if (status === 500) expect(JSON.stringify(body)).not.to.contain('secret');
          if (status === 401) expect(res.headers.get('www-authenticate')).to.match(/^Bearer realm="storefront"/);
        } finally {
          await server.close();
        }
      });
    }
  });

  it("answers service_unavailable 503 with its Retry-After (header and retry_after) and the route's retry advice, and logs nothing", async () => {
    const server = await serveWithFailingMenu(() => new DomainError('service_unavailable', 'Too busy.', { retryAfterSeconds: 2 }));
    try {
      const res = await fetch(`${server.url}/api/products`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('2');
      expect(await res.json()).to.deep.equal({ error: 'service_unavailable', message: 'Too busy. It is safe to retry.', retry_after: 2 });
      expect(server.logs.filter((entry) => entry.level === 'error')).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it('answers an unexpected failure with a generic 500, logs it once with its cause and request id, and leaks nothing', async () => {
    const server = await serveWithFailingMenu(() => new Error('mongo://user:hunter2@db failed at /srv/app.js:12'));
    try {
      const res = await fetch(`${server.url}/api/products`, { headers: { 'x-request-id': 'trace-500' } });
      const text = await res.text();
      expect(res.status).to.equal(500);
      expect(JSON.parse(text)).to.deep.equal({
        error: 'internal_error',
        message: 'The operation failed on our side. It is safe to retry.',
      });
      expect(text).not.to.match(/hunter2|\.js|at /);
      const errors = server.logs.filter((entry) => entry.level === 'error');
      expect(errors).to.have.length(1);
      expect(errors[0]!.fields['req_id']).to.equal('trace-500');
      expect((errors[0]!.fields['err'] as Error).message).to.contain('hunter2');
    } finally {
      await server.close();
    }
  });
});

describe('Per-operation failure', () => {
  let server: TestServer;
  let token: string;
  let flaky: Faults<OrderRepository>;

  before(async () => {
    flaky = new Faults((await import('@storefront/adapters-memory')).createMemoryAdapters().orders).down('insert');
    server = await serve({ orders: flaky.target });
    token = await loginAs(server.url, 'alice@example.com', 'alice-password');
  });
  after(() => server.close());

  it('answers POST /api/orders 500 while GET /api/orders keeps answering 200, and recovers without a restart', async () => {
    const productId = ((await (await fetch(`${server.url}/api/products`)).json()) as { products: { product_id: string; available: boolean }[] })
      .products.find((p) => p.available)!.product_id;
    const place = () =>
      fetch(`${server.url}/api/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }] }),
      });

    const failed = await place();
    expect(failed.status).to.equal(500);
    expect(((await failed.json()) as { error: string }).error).to.equal('internal_error');
    const list = await fetch(`${server.url}/api/orders`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).to.equal(200);
    expect(((await list.json()) as { meta: { total: number } }).meta.total).to.equal(0);

    flaky.heal();
    const retried = await place();
    expect(retried.status).to.equal(201);
    expect(retried.headers.get('idempotent-replayed')).to.equal(null);
  });
});

describe('A busy database in the middle of a placement', () => {
  it('tells a client without an Idempotency-Key that the order may have been placed, and one with a key that retrying is safe', async () => {
    const { createMemoryAdapters } = await import('@storefront/adapters-memory');
    const real = createMemoryAdapters().orders;
    // The order's insert stores it and then the pool is busy (as for a placement's later step).
    const busyAfterInsert: OrderRepository = new Proxy(real, {
      get: (target, property, receiver) =>
        property === 'insert'
          ? async (...args: Parameters<OrderRepository['insert']>) => {
              await target.insert(...args);
              throw new DomainError('service_unavailable', 'The database is busy.', { retryAfterSeconds: 1 });
            }
          : Reflect.get(target, property, receiver),
    });
    const server = await serve({ orders: busyAfterInsert });
    try {
      const token = await loginAs(server.url, 'alice@example.com', 'alice-password');
      const productId = ((await (await fetch(`${server.url}/api/products`)).json()) as { products: { product_id: string; available: boolean }[] }).products.find(
        (p) => p.available,
      )!.product_id;
      const place = (key?: string) =>
        fetch(`${server.url}/api/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
          body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }] }),
        });
      const unkeyed = await place();
      expect(unkeyed.status).to.equal(503);
      expect(unkeyed.headers.get('retry-after')).to.equal('1');
      expect(((await unkeyed.json()) as { message: string }).message).to.equal(
        'The database is busy. The order may have been placed: check GET /api/orders before placing it again (with an Idempotency-Key, a retry is safe).',
      );
      const keyed = await place('busy-1');
      expect(((await keyed.json()) as { message: string }).message).to.equal('The database is busy. It is safe to retry with the same Idempotency-Key.');
    } finally {
      await server.close();
    }
  });
});

async function serveWithFailingMenu(failure: () => Error): Promise<TestServer> {
  const { createMemoryAdapters } = await import('@storefront/adapters-memory');
  const real = createMemoryAdapters().menu;
  const failing: MenuRepository = {
    list: () => Promise.reject(failure()),
    findByIds: (ids) => real.findByIds(ids),
    upsertByName: (drafts) => real.upsertByName(drafts),
    revision: () => real.revision(),
    setAvailability: (productId, available) => real.setAvailability(productId, available),
  };
  return serve({ menu: failing });
}
