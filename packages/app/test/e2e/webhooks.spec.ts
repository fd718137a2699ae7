/**
 * Outgoing webhooks end to end (DECISIONS "Webhooks (outgoing)"): a real service on a real port,
 * real receivers on loopback that verify every request with the reference `standardwebhooks`
 * library and fail on purpose. Retries are driven by the service's injected clock (a FakeClock):
 * the test moves time past a retry delay and the dispatcher's next poll sends. The clock starts a
 * few minutes behind the real one, because the reference library checks `webhook-timestamp`
 * against the real clock (±5 min) and the test moves the service's time forward by up to 6 min.
 *
 * In postgres mode (STOREFRONT_TEST_STORE=postgres) two more: a restart with deliveries pending
 * (all delivered after it), and two instances on one database (no delivery sent twice at once).
 */
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { FakeClock, WebhookReceiver } from '@storefront/testing';
import { postgresMode } from '../postgres-mode.js';
import { sharedDatabase, type SharedDatabase } from '../scale-out/shared-database.js';
import { move, staffToken } from './kitchen-support.js';
import { ALICE, availableProducts, baseOf, call, expectError, login, newCustomer, placeOrder, startServer, useServer, type RunningServer, type ServerHandle } from './support.js';
import { adminToken, deliveries, expectInVersionOrder, register, untilDeliveries } from './webhooks-support.js';

const ALLOW = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '500' };
const MINUTE = 60_000;

/** Places an order as a fresh customer; its id. */
async function anOrder(h: Pick<ServerHandle, 'url'> & { server: RunningServer }): Promise<{ orderId: string; body: Record<string, unknown> }> {
  const { token } = await newCustomer(h as ServerHandle, 'webhooks');
  const product = (await availableProducts(h.url))[0]!;
  const res = await placeOrder(h.url, token, [{ product_id: product.product_id, quantity: 1 }]);
  expect(res.status, res.text).to.equal(201);
  return { orderId: res.body.order_id as string, body: res.body as Record<string, unknown> };
}

async function moved(base: string, staff: string, orderId: string, status: string): Promise<void> {
  const res = await move(base, staff, orderId, status);
  expect(res.status, res.text).to.equal(200);
}

describe('Webhooks end to end', function () {
  this.timeout(60_000);
  const receivers: WebhookReceiver[] = [];
  const receiver = async (): Promise<WebhookReceiver> => {
    const r = await WebhookReceiver.start();
    receivers.push(r);
    return r;
  };
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  describe('registration and roles (no WEBHOOK_ALLOW_PRIVATE)', () => {
    const h = useServer({ WEBHOOK_ALLOW_HTTP: 'true' });

    it('refuses a receiver on a private address, in any spelling, with 400 validation_failed on url', async () => {
      const admin = await adminToken(h.url);
      const r = await receiver();
      const port = new URL(r.url()).port;
      for (const url of [r.url(), `https://localhost:${port}/hooks`, `http://0x7f.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::127.0.0.1]:${port}/`, `http://[64:ff9b::127.0.0.1]:${port}/`, 'https://169.254.169.254/latest', 'http://10.0.0.8/hooks']) {
        const res = await call(h.url, '/api/admin/webhooks', { token: admin, json: { url } });
        expectError(res, 400, 'validation_failed');
        expect(JSON.stringify(res.body.details), url).to.include('url');
      }
      expect((await call(h.url, '/api/admin/webhooks', { token: admin })).body.webhooks).to.deep.equal([]);
    });

    it('lets only an admin manage webhooks: staff and customers 403, no token 401', async () => {
      const staff = await staffToken(h.url);
      const customer = (await login(h.url, ALICE.email, ALICE.password, { localAddress: '127.0.0.96' })).access_token;
      for (const token of [staff, customer]) {
        expectError(await call(h.url, '/api/admin/webhooks', { token, json: { url: 'https://pos.example.com/hooks' } }), 403, 'forbidden');
        expectError(await call(h.url, '/api/admin/webhooks', { token }), 403, 'forbidden');
      }
      expectError(await call(h.url, '/api/admin/webhooks'), 401, 'unauthorized');
    });
  });

  describe('delivery (WEBHOOK_ALLOW_PRIVATE, an injected clock)', () => {
    const clock = new FakeClock(Date.now() - 4 * MINUTE);
    // The file is loaded minutes before this block runs in the whole suite: set the clock then, or
    // the receiver's ±5 min check of webhook-timestamp refuses every request.
    before(() => clock.advance(Date.now() - 4 * MINUTE - clock.now().getTime()));
    const h = useServer(ALLOW, { clock });
    let admin: string;
    let staff: string;
    before(async () => {
      admin = await adminToken(h.url);
      staff = await staffToken(h.url);
    });
    afterEach(async () => {
      // Each test's endpoints go, so that the next test's orders are not sent to them.
      for (const w of (await call(h.url, '/api/admin/webhooks', { token: admin })).body.webhooks as { webhook_id: string }[]) {
        await call(h.url, `/api/admin/webhooks/${w.webhook_id}`, { token: admin, method: 'DELETE' });
      }
    });

    it('sends every event of placed and moved orders, verified, in version order per order, with the documented bodies', async () => {
      const r = await receiver();
      await register(h.url, admin, r);
      const orders = [await anOrder(h), await anOrder(h), await anOrder(h)];
      for (const status of ['accepted', 'preparing', 'ready']) for (const { orderId } of orders) await moved(h.url, staff, orderId, status);
      await moved(h.url, staff, orders[0]!.orderId, 'completed');
      const expected = new Map(orders.map(({ orderId }, i) => [orderId, i === 0 ? 5 : 4]));
      await r.waitFor((x) => x.accepted.length >= 13, 10_000, '13 events');
      expectInVersionOrder(r, expected);
      const placed = r.accepted.find((x) => x.json?.type === 'order.placed' && (x.json.data as { order_id: string }).order_id === orders[0]!.orderId)!;
      expect(placed.json?.data, 'order.placed: the order as GET /api/orders/{id} showed it when placed').to.deep.equal(orders[0]!.body);
      const status = r.accepted.find((x) => x.json?.type === 'order.status')!;
      expect(status.json?.data).to.have.keys('order_id', 'status', 'version', 'at');
      expect(status.headers['webhook-id']).to.match(/^evt_/);
    });

    it('retries after failures (5xx, a closed connection, a time-out, a refused connection) as the clock moves, then delivers, the later event waiting its turn', async () => {
      const r = await receiver();
      const id = await register(h.url, admin, r, { events: ['order.placed', 'order.status'] });
      r.failWith(503);
      const { orderId } = await anOrder(h);
      await r.waitFor((x) => x.requests.length === 1, 10_000, 'the first attempt');
      await moved(h.url, staff, orderId, 'accepted');
      const [first] = await untilDeliveries(h.url, admin, id, (list) => list.some((d) => d.attempts === 1), 'the first attempt recorded');
      expect(r.requests.every((x) => x.json?.type === 'order.placed'), 'the status event waits while the placed one is pending').to.equal(true);
      expect(first).to.not.equal(undefined);

      r.closeConnections();
      clock.advance(6_000); // past 5 s + 10 %
      await r.waitFor((x) => x.requests.length === 2, 10_000, 'the second attempt, 5 s later');
      // The next delay counts from when the attempt is recorded: move the clock only after that.
      await untilDeliveries(h.url, admin, id, (list) => list.some((d) => d.attempts === 2), 'the second attempt recorded');
      r.hang();
      clock.advance(5.6 * MINUTE); // past 5 min + 10 %
      await r.waitFor((x) => x.requests.length === 3, 10_000, 'the third attempt, 5 min later');
      const afterTimeout = await untilDeliveries(h.url, admin, id, (list) => list.some((d) => d.attempts === 3), 'the time-out recorded');
      const placed = afterTimeout.find((d) => d.type === 'order.placed')!;
      expect(placed).to.include({ status: 'pending', attempts: 3, last_status_code: null });
      expect(placed.last_error).to.match(/no response within 500 ms/);

      await r.refuseConnections();
      await call(h.url, `/api/admin/webhooks/${id}/deliveries/${placed.delivery_id}/retry`, { token: admin, method: 'POST' });
      await untilDeliveries(h.url, admin, id, (list) => list.some((d) => d.attempts === 4), 'the refused attempt recorded');
      expect((await deliveries(h.url, admin, id, '&status=pending')).find((d) => d.type === 'order.placed')?.last_error).to.equal('connection refused');

      await r.acceptConnections();
      r.succeed();
      await call(h.url, `/api/admin/webhooks/${id}/deliveries/${placed.delivery_id}/retry`, { token: admin, method: 'POST' });
      await r.waitFor((x) => x.accepted.length === 2, 10_000, 'both events delivered');
      expectInVersionOrder(r, new Map([[orderId, 2]]));
      expect(new Set(r.requests.filter((x) => x.json?.type === 'order.placed').map((x) => x.headers['webhook-id'])).size, 'the same webhook-id on every attempt').to.equal(1);
      // Recorded once the receiver's answer is back: read until then.
      await untilDeliveries(h.url, admin, id, (list) => list.every((d) => d.status === 'delivered'), 'both recorded delivered');
    });

    it('disables an endpoint that answers 410 Gone at once; once enabled again, events flow and the refused one can be retried', async () => {
      const r = await receiver();
      const id = await register(h.url, admin, r);
      r.failWith(410);
      const first = await anOrder(h);
      await r.waitFor((x) => x.requests.length === 1, 10_000, 'the attempt answered 410');
      const gone = await untilDeliveries(h.url, admin, id, (list) => list[0]?.attempts === 1, 'the 410 recorded');
      expect(gone[0]).to.include({ last_status_code: 410, status: 'failed' });
      const endpoint = await call(h.url, `/api/admin/webhooks/${id}`, { token: admin });
      expect(endpoint.body).to.include({ enabled: false, disabled_reason: 'gone' });
      // While it is disabled nothing is sent to it.
      await anOrder(h);
      expect(r.requests).to.have.length(1);
      r.succeed();
      const enabled = await call(h.url, `/api/admin/webhooks/${id}`, { token: admin, method: 'PATCH', json: { enabled: true } });
      expect(enabled.body).to.include({ enabled: true }).and.not.have.property('disabled_reason');
      const { orderId } = await anOrder(h);
      await moved(h.url, staff, orderId, 'accepted');
      await r.waitFor((x) => x.accepted.length === 2, 10_000, 'the events after re-enabling');
      expectInVersionOrder(r, new Map([[orderId, 2]]));
      await call(h.url, `/api/admin/webhooks/${id}/deliveries/${gone[0]!.delivery_id}/retry`, { token: admin, method: 'POST' });
      await r.waitFor((x) => x.accepted.length === 3, 10_000, 'the retried delivery');
      expect((r.accepted[2]?.json?.data as { order_id: string }).order_id).to.equal(first.orderId);
    });

    it('shows the status of a redirect the receiver answered (307), with the reason in last_error, and follows it not', async () => {
      const r = await receiver();
      const id = await register(h.url, admin, r);
      r.failWith(307);
      await anOrder(h);
      await r.waitFor((x) => x.requests.length === 1, 10_000, 'the attempt answered 307');
      const [redirected] = await untilDeliveries(h.url, admin, id, (list) => list[0]?.attempts === 1, 'the 307 recorded');
      expect(redirected).to.include({ status: 'pending', last_status_code: 307, last_error: 'redirect not followed (HTTP 307)' });
      expect(r.requests).to.have.length(1);
    });

    it('signs with both secrets for a day after a rotation: each verifies on its own', async () => {
      const r = await receiver();
      const id = await register(h.url, admin, r);
      const old = r.secrets[0]!;
      const rotated = await call(h.url, `/api/admin/webhooks/${id}/rotate-secret`, { token: admin, method: 'POST' });
      expect(rotated.status, rotated.text).to.equal(200);
      const fresh = rotated.body.secret as string;
      r.secrets = [fresh, old];
      const test = await call(h.url, `/api/admin/webhooks/${id}/test`, { token: admin, method: 'POST' });
      expect(test.status, test.text).to.equal(202);
      await r.waitFor((x) => x.accepted.length === 1, 10_000, 'the test event');
      const [request] = r.accepted;
      expect(request?.json?.type).to.equal('webhook.test');
      expect(request?.headers['webhook-id']).to.equal(test.body.event_id);
      expect(request?.verifiedWith).to.deep.equal([fresh, old]);
      expect(request?.headers['webhook-signature']?.split(' ')).to.have.length(2);
    });
  });

  describe('in PostgreSQL mode', function () {
    let store: SharedDatabase | undefined;
    before(async function () {
      if (!postgresMode()) {
        console.warn('    (webhooks: the restart and two-instance tests need STOREFRONT_TEST_STORE=postgres; skipped)');
        this.skip();
      }
      const shared = await sharedDatabase('webhooks');
      if (typeof shared === 'string') this.skip();
      store = shared as SharedDatabase;
    });
    after(async () => {
      await store?.drop();
    });
    const envOf = (seed = true) => ({ ...store!.env, ...ALLOW, STOREFRONT_DEMO_DATA: String(seed) });
    /** A server on the shared database, once it is connected (and seeded). */
    const started = async (seed = true, clock?: FakeClock): Promise<RunningServer> => {
      const server = await startServer(envOf(seed), clock === undefined ? {} : { clock });
      await server.ready;
      return server;
    };

    it('delivers after a restart what was pending before it', async () => {
      const r = await receiver();
      let server: RunningServer | undefined = await started();
      const expected = new Map<string, number>();
      try {
        const base = baseOf(server);
        const admin = await adminToken(base);
        const staff = await staffToken(base);
        await register(base, admin, r);
        await r.refuseConnections();
        for (let i = 0; i < 4; i++) {
          const { orderId } = await anOrder({ url: base, server });
          await moved(base, staff, orderId, 'accepted');
          expected.set(orderId, 2);
        }
        await server.close();
        server = undefined;
      } finally {
        await server?.close();
      }
      await r.acceptConnections();
      // Past the 5 s retry delay and any lease the first instance held (60 s).
      const restarted = await started(false, new FakeClock(Date.now() + 90_000));
      try {
        await r.waitFor((x) => x.accepted.length >= 8, 15_000, 'the 8 pending events');
        expectInVersionOrder(r, expected);
      } finally {
        await restarted.close();
      }
    });

    it('two instances on one database never send one delivery twice at once, and send each once', async () => {
      const r = await receiver();
      r.delay(30);
      const servers = [await started(), await started(false)];
      try {
        const bases = servers.map(baseOf);
        const admin = await adminToken(bases[0]!);
        const staff = await staffToken(bases[1]!);
        const webhookId = await register(bases[0]!, admin, r);
        // The other instance reads the endpoint list again within ENDPOINT_CACHE_MS (1 s): an event
        // it relays before then is not for this endpoint (DECISIONS: changes reach other instances
        // within that bound).
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const expected = new Map<string, number>();
        for (let i = 0; i < 20; i++) {
          const base = bases[i % 2]!;
          const { orderId } = await anOrder({ url: base, server: servers[i % 2]! });
          await moved(bases[(i + 1) % 2]!, staff, orderId, 'accepted');
          await moved(base, staff, orderId, 'preparing');
          expected.set(orderId, 3);
        }
        try {
          await r.waitFor((x) => x.accepted.length >= 60, 20_000, 'the 60 events');
        } catch (error) {
          // Say which deliveries are missing and how the store holds them.
          const got = new Set(r.accepted.map((x) => x.headers['webhook-id']));
          const missing = (await deliveries(bases[0]!, admin, webhookId)).filter((d) => !got.has(d.event_id));
          throw new Error(`${(error as Error).message.slice(0, 120)}…; not received: ${JSON.stringify(missing)}`);
        }
        expect(r.overlaps, 'webhook-ids sent while the same one was in flight').to.deep.equal([]);
        expect([...r.countsById().values()].every((n) => n === 1), 'each event sent once').to.equal(true);
        expectInVersionOrder(r, expected);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    });
  });
});
