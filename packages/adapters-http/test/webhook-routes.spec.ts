/**
 * /api/admin/webhooks over real HTTP (memory adapters, demo accounts): what an admin registers,
 * sees, changes, rotates, tests and retries, and every bad input a clear 4xx that changes nothing.
 * No sender is wired: deliveries stay pending, which is what the listing shows.
 */
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { loginAs, serve, type TestServer } from './support.js';

describe('/api/admin/webhooks', () => {
  let server: TestServer;
  let admin: string;
  const refusedHost = '10.0.0.1';

  before(async () => {
    server = await serve(
      { webhookUrlPolicy: { check: async (url) => (new URL(url).hostname === refusedHost ? `${refusedHost} is a private address, not a public one` : null) } },
      { storefront: { requestPolicy: { name: 'default', limit: 10_000, windowSeconds: 60 } } },
    );
    admin = await loginAs(server.url, 'owner@example.com', 'owner-password');
  });
  after(() => server.close());

  const call = async (method: string, path: string, body?: unknown, token: string | null = admin) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
  };
  const add = (body: unknown = { url: 'https://pos.example.com/hooks' }) => call('POST', '/api/admin/webhooks', body);

  it('registers an endpoint for every event type by default, and shows its secret only then', async () => {
    const created = await add({ url: 'https://pos.example.com/hooks', description: 'POS' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ url: 'https://pos.example.com/hooks', description: 'POS', enabled: true });
    expect(created.body?.['events']).to.deep.equal(['order.placed', 'order.status', 'order.refunded']);
    expect(created.body?.['webhook_id']).to.match(/^whk_[0-9a-z]{20}$/);
    expect(created.body?.['secret']).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.body?.['webhook_id'] as string;
    const one = await call('GET', `/api/admin/webhooks/${id}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.not.have.property('secret');
    const list = await call('GET', '/api/admin/webhooks');
    expect(list.body?.['webhooks'].map((w: { webhook_id: string }) => w.webhook_id)).to.include(id);
    expect(JSON.stringify(list.body)).to.not.include('whsec_');
  });

  it('refuses an address the policy refuses, and bad shapes, with 400 and nothing registered', async () => {
    const before = (await call('GET', '/api/admin/webhooks')).body?.['webhooks'].length;
    const privateUrl = await add({ url: `https://${refusedHost}/hooks` });
    expect(privateUrl.status).to.equal(400);
    expect(privateUrl.body?.['error']).to.equal('validation_failed');
    expect(JSON.stringify(privateUrl.body?.['details'])).to.include('url');
    for (const bad of [{}, { url: 'ftp://pos.example.com/' }, { url: 'https://pos.example.com/', events: ['order.eaten'] }, { url: 'https://pos.example.com/', events: [] }, { url: 'https://x.example.com/', extra: 1 }, { url: 'https://x.example.com/', description: 'x'.repeat(501) }]) {
      const refused = await add(bad);
      expect(refused.status, JSON.stringify(bad)).to.equal(400);
      expect(refused.body?.['error'], JSON.stringify(bad)).to.equal('validation_failed');
    }
    expect((await call('GET', '/api/admin/webhooks')).body?.['webhooks'].length).to.equal(before);
  });

  it('is for admins only: none 401, a customer or staff token 403', async () => {
    const customer = await loginAs(server.url, 'alice@example.com', 'alice-password');
    const staff = await loginAs(server.url, 'kitchen@example.com', 'kitchen-password');
    expect((await call('GET', '/api/admin/webhooks', undefined, null)).status).to.equal(401);
    expect((await call('GET', '/api/admin/webhooks', undefined, customer)).body?.['error']).to.equal('forbidden');
    expect((await call('POST', '/api/admin/webhooks', { url: 'https://pos.example.com/' }, staff)).status).to.equal(403);
  });

  it('changes, disables and removes an endpoint', async () => {
    const id = (await add()).body?.['webhook_id'] as string;
    const changed = await call('PATCH', `/api/admin/webhooks/${id}`, { events: ['order.status'], enabled: false });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.include({ enabled: false, disabled_reason: 'admin' });
    expect(changed.body?.['events']).to.deep.equal(['order.status']);
    expect((await call('PATCH', `/api/admin/webhooks/${id}`, {})).status).to.equal(400);
    expect((await call('PATCH', `/api/admin/webhooks/${id}`, { url: `https://${refusedHost}/` })).status).to.equal(400);
    const enabled = await call('PATCH', `/api/admin/webhooks/${id}`, { enabled: true });
    expect(enabled.body).to.include({ enabled: true }).and.not.have.property('disabled_reason');
    expect((await call('DELETE', `/api/admin/webhooks/${id}`)).status).to.equal(204);
    expect((await call('GET', `/api/admin/webhooks/${id}`)).status).to.equal(404);
    expect((await call('DELETE', `/api/admin/webhooks/${id}`)).status).to.equal(404);
    expect((await call('GET', '/api/admin/webhooks/whk_nope')).status).to.equal(404);
  });

  it('rotates the secret: a new one each time', async () => {
    const created = await add();
    const id = created.body?.['webhook_id'] as string;
    const rotated = await call('POST', `/api/admin/webhooks/${id}/rotate-secret`);
    expect(rotated.status).to.equal(200);
    expect(rotated.body?.['secret']).to.match(/^whsec_/).and.not.equal(created.body?.['secret']);
  });

  it('queues a test event, lists it among the deliveries, and retries it', async () => {
    const id = (await add()).body?.['webhook_id'] as string;
    const queued = await call('POST', `/api/admin/webhooks/${id}/test`);
    expect(queued.status).to.equal(202);
    const deliveries = await call('GET', `/api/admin/webhooks/${id}/deliveries?status=pending`);
    expect(deliveries.status).to.equal(200);
    expect(deliveries.body?.['meta']).to.include({ total: 1, page: 1 });
    const [delivery] = deliveries.body?.['deliveries'] as Record<string, unknown>[];
    expect(delivery).to.include({ event_id: queued.body?.['event_id'], type: 'webhook.test', status: 'pending', attempts: 0, last_status_code: null, delivered_at: null });
    expect((await call('GET', `/api/admin/webhooks/${id}/deliveries?status=delivered`)).body?.['deliveries']).to.deep.equal([]);
    expect((await call('GET', `/api/admin/webhooks/${id}/deliveries?status=lost`)).status).to.equal(400);
    expect((await call('GET', `/api/admin/webhooks/${id}/deliveries?limit=0`)).status).to.equal(400);
    const retried = await call('POST', `/api/admin/webhooks/${id}/deliveries/${delivery?.['delivery_id'] as string}/retry`);
    expect(retried.status).to.equal(202);
    expect((await call('POST', `/api/admin/webhooks/${id}/deliveries/wdl_00000000000000000000/retry`)).status).to.equal(404);
    expect((await call('POST', `/api/admin/webhooks/${id}/deliveries/nope/retry`)).status).to.equal(404);
  });
});
