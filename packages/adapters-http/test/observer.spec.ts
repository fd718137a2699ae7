/**
 * The HTTP app's observer (`options.observer`, what metrics are built on): one sample per answered
 * request with the route's template (never the path), each unexpected failure, and the count of
 * open streams.
 */
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { DomainError, type MenuRepository } from '@storefront/domain';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { RequestSample } from '../src/index.js';
import { loginAs, serve, type TestServer } from './support.js';

const ORDER_ID = '3f0c2a57-0d7e-4f7e-9a61-5b2b7c1e9d40';

interface Observed extends TestServer {
  readonly samples: RequestSample[];
  readonly failures: unknown[];
}

async function observed(menu?: MenuRepository): Promise<Observed> {
  const samples: RequestSample[] = [];
  const failures: unknown[] = [];
  const server = await serve(menu && { menu }, {
    accessLog: () => undefined,
    app: { observer: { request: (sample) => samples.push(sample), failure: (error) => failures.push(error) } },
  });
  return { ...server, samples, failures };
}

async function answer(url: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}

describe('HTTP observer', () => {
  it('hears each answered request once, labelled by the route template and never by the path', async () => {
    const server = await observed();
    try {
      expect(await answer(`${server.url}/api/products`)).to.equal(200);
      expect(await answer(`${server.url}/api/orders/${ORDER_ID}`)).to.equal(401);
      expect(await answer(`${server.url}/api/nothing/${ORDER_ID}`)).to.equal(404);
      expect(await answer(`${server.url}/api/products`, { method: 'DELETE' })).to.equal(405);
      expect(server.samples.map(({ route, method, status }) => ({ route, method, status }))).to.deep.equal([
        { route: '/api/products', method: 'GET', status: 200 },
        { route: '/api/orders/:order_id', method: 'GET', status: 401 },
        { route: undefined, method: 'GET', status: 404 },
        { route: undefined, method: 'DELETE', status: 405 },
      ]);
      for (const sample of server.samples) expect(sample.durationMs).to.be.greaterThan(0).and.lessThan(10_000);
      expect(server.failures).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it('hears each failure answered 500, with the error as thrown, and no expected one', async () => {
    const outage = new DomainError('database_unavailable', 'The database is unreachable.');
    const real = createMemoryAdapters().menu;
    // Every read of the whole menu fails as an unreachable store does (seeding only writes).
    const server = await observed({
      list: () => Promise.reject(outage),
      findByIds: (ids) => real.findByIds(ids),
      upsertByName: (drafts) => real.upsertByName(drafts),
      revision: () => real.revision(),
      setAvailability: (productId, available) => real.setAvailability(productId, available),
    });
    try {
      expect(await answer(`${server.url}/api/products`)).to.equal(500);
      expect(await answer(`${server.url}/api/nothing`)).to.equal(404);
      expect(server.failures).to.deep.equal([outage]);
      expect(server.samples.map((sample) => sample.status)).to.deep.equal([500, 404]);
    } finally {
      await server.close();
    }
  });

  it('counts the streams open now', async () => {
    const server = await observed();
    try {
      const token = await loginAs(server.url, 'kitchen@example.com', 'kitchen-password');
      expect(server.app.openStreams).to.equal(0);
      const stream = new AbortController();
      const res = await fetch(`${server.url}/api/staff/events`, { headers: { authorization: `Bearer ${token}` }, signal: stream.signal });
      expect(res.status).to.equal(200);
      expect(server.app.openStreams).to.equal(1);
      stream.abort();
      const deadline = Date.now() + 2_000;
      while (server.app.openStreams > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.app.openStreams).to.equal(0);
      // Heard when it ended, with its route.
      expect(server.samples.at(-1)).to.include({ route: '/api/staff/events', method: 'GET', status: 200 });
    } finally {
      await server.close();
    }
  });
});
