/**
 * Live order updates (DECISIONS "Live order updates"): GET /api/orders/{order_id}/events and
 * GET /api/staff/events through startStorefront in memory mode, read with fetch as a stream client
 * reads them. Who may follow what, the snapshot, live moves, resuming with Last-Event-ID, resets,
 * the per-caller limit, and every way a stream ends. The streams' ticker and deadlines run on a
 * FakeTimers (pings, revalidation and expiry happen when a test moves it, at the production periods),
 * so a busy machine only makes them slower; real-time waits are generous bounds on what is "at once".
 *
 * An id too old for the replay window cannot be made here quickly (the window keeps at least the
 * newest 10,000 events); the adapter's tests cover it with a log of a small window
 * (packages/adapters-http/test/event-routes.spec.ts).
 */
import { after, afterEach, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { STREAM_LIMITS } from '@storefront/adapters-http';
import { FakeTimers } from '@storefront/testing';
import type { StartOptions } from '../../src/server.js';
import { ALICE, call, login, startServer, useServer, type RunningServer } from './support.js';
import { aPlacedOrder, move, staffToken } from './kitchen-support.js';
import type { SseReader } from '@storefront/testing';
import { dataOf, expectSchema, follow, openEvents, summary } from './events-support.js';
import { newSigningKey, resign } from './tokens.js';

const STATUS_EVENT = '/components/schemas/OrderStatusEvent';
const ORDER = '/components/schemas/Order';

/** A server whose streams' timers move only when the test says (their clock starts now: tokens are real). */
function withFakeTimers(): { timers: FakeTimers; options: StartOptions } {
  const timers = new FakeTimers(Date.now());
  return { timers, options: { streams: { timers, clock: timers } } };
}

describe('e2e: live order updates', function () {
  const h = useServer({}, withFakeTimers().options);
  let staff = '';
  const streams: SseReader[] = [];

  /** A stream answered 200 and read past its `retry:`, closed after the test. */
  async function open(path: string, token: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const stream = await follow(h.url, path, token, headers);
    streams.push(stream);
    return stream;
  }

  before(async function () {
    staff = await staffToken(h.url);
  });
  afterEach(async function () {
    await Promise.all(streams.splice(0).map((stream) => stream.cancel()));
  });

  describe('GET /api/orders/{order_id}/events', function () {
    it('streams to the owner, no-store and unbuffered: retry: 3000, then the current state as one order.status event', async function () {
      const { token, order } = await aPlacedOrder(h);
      const opened = await openEvents(h.url, `/api/orders/${order.order_id}/events`, token);
      expect(opened.status).to.equal(200);
      expect(opened.headers.get('content-type')).to.match(/^text\/event-stream(;|$)/);
      expect(opened.headers.get('cache-control')).to.equal('no-store');
      expect(opened.headers.get('x-accel-buffering')).to.equal('no');
      const stream = (opened as { stream: SseReader }).stream;
      streams.push(stream);
      expect(await stream.next()).to.deep.equal({ retry: '3000' });
      const snapshot = await stream.next();
      expect(snapshot?.event).to.equal('order.status');
      expect(snapshot?.id).to.be.a('string').and.not.equal('');
      expectSchema(STATUS_EVENT, dataOf(snapshot));
      expect(dataOf(snapshot)).to.deep.equal({ order_id: order.order_id, status: 'placed', version: 1, at: order.created_at });
    });

    it('writes a kitchen move as the next order.status event', async function () {
      const { token, order } = await aPlacedOrder(h);
      const stream = await open(`/api/orders/${order.order_id}/events`, token);
      await stream.next();
      expect((await move(h.url, staff, order.order_id, 'accepted')).status).to.equal(200);
      const moved = await stream.nextEvent();
      expect(moved?.event).to.equal('order.status');
      expectSchema(STATUS_EVENT, dataOf(moved));
      expect(dataOf(moved)).to.include({ order_id: order.order_id, status: 'accepted', version: 2 });
      expect((await move(h.url, staff, order.order_id, 'cancelled', { reason: 'fryer broke' })).status).to.equal(200);
      expect(dataOf(await stream.nextEvent())).to.include({ status: 'cancelled', version: 3, reason: 'fryer broke' });
    });

    it('streams any order to staff, and answers anybody else 404 not_found (an unknown or malformed id too), and no token 401', async function () {
      const { order } = await aPlacedOrder(h);
      const stream = await open(`/api/orders/${order.order_id}/events`, staff);
      expect(summary(await stream.next())).to.equal('placed@1');
      const stranger = (await login(h.url, ALICE.email, ALICE.password)).access_token;
      for (const path of [`/api/orders/${order.order_id}/events`, '/api/orders/ord_0000000000000000000000/events', '/api/orders/x/events']) {
        const refused = await openEvents(h.url, path, stranger);
        expect(refused.status, path).to.equal(404);
        expect((refused as { body: { error: string } }).body.error).to.equal('not_found');
      }
      expect((await openEvents(h.url, `/api/orders/${order.order_id}/events`, undefined)).status).to.equal(401);
    });
  });

  describe('GET /api/staff/events', function () {
    it('gives staff every order.placed, the order exactly as GET /api/orders/{id} renders it, then each order.status', async function () {
      const stream = await open('/api/staff/events', staff);
      const { order } = await aPlacedOrder(h);
      expect((await move(h.url, staff, order.order_id, 'accepted')).status).to.equal(200);
      const placed = await stream.nextEvent();
      const moved = await stream.nextEvent();
      expect(placed?.event).to.equal('order.placed');
      expectSchema(ORDER, dataOf(placed));
      expect(dataOf(placed)).to.deep.equal(order);
      expect(moved?.event).to.equal('order.status');
      expect(dataOf(moved)).to.include({ order_id: order.order_id, status: 'accepted', version: 2 });
      expect(Number(moved?.id)).to.be.greaterThan(Number(placed?.id));
    });

    it('answers no token 401, a customer 403 forbidden, and never reads a token from the URL', async function () {
      const customer = (await login(h.url, ALICE.email, ALICE.password)).access_token;
      expect((await openEvents(h.url, '/api/staff/events', undefined)).status).to.equal(401);
      const forbidden = await openEvents(h.url, '/api/staff/events', customer);
      expect([forbidden.status, (forbidden as { body: { error: string } }).body.error]).to.deep.equal([403, 'forbidden']);
      expect((await openEvents(h.url, `/api/staff/events?access_token=${staff}`, undefined)).status).to.equal(401);
      const { token, order } = await aPlacedOrder(h);
      expect((await openEvents(h.url, `/api/orders/${order.order_id}/events?access_token=${token}`, undefined)).status).to.equal(401);
    });
  });

  describe('Last-Event-ID', function () {
    it('replays to the kitchen exactly what it missed while away, none twice and none missing, then goes on live', async function () {
      const first = await open('/api/staff/events', staff);
      const { order } = await aPlacedOrder(h);
      const seen = await first.nextEvent();
      await first.cancel();
      await move(h.url, staff, order.order_id, 'accepted');
      const { order: other } = await aPlacedOrder(h);
      await move(h.url, staff, order.order_id, 'preparing');

      const again = await open('/api/staff/events', staff, { 'Last-Event-ID': seen!.id! });
      const replayed = await again.events(3);
      expect(replayed.map(summary)).to.deep.equal(['accepted@2', `placed ${other.order_id}`, 'preparing@3']);
      // Ids are opaque to a client; here they also show that nothing in between was skipped.
      expect(replayed.map((frame) => Number(frame!.id) - Number(seen!.id))).to.deep.equal([1, 2, 3]);
      await move(h.url, staff, order.order_id, 'ready');
      expect(summary(await again.nextEvent())).to.equal('ready@4');
      expect(await again.quietFor(100)).to.equal(true);
    });

    it('replays to an order\'s stream only that order\'s missed moves, without a new snapshot', async function () {
      const { token, order } = await aPlacedOrder(h);
      const first = await open(`/api/orders/${order.order_id}/events`, token);
      const snapshot = await first.next();
      await first.cancel();
      await move(h.url, staff, order.order_id, 'accepted');
      await aPlacedOrder(h);
      await move(h.url, staff, order.order_id, 'preparing');
      const again = await open(`/api/orders/${order.order_id}/events`, token, { 'Last-Event-ID': snapshot!.id! });
      expect((await again.events(2)).map(summary)).to.deep.equal(['accepted@2', 'preparing@3']);
      expect(await again.quietFor(100)).to.equal(true);
    });

    it('answers an id that is not one with one event: reset (data {}, no id), then the order\'s current state', async function () {
      const { token, order } = await aPlacedOrder(h);
      await move(h.url, staff, order.order_id, 'accepted');
      for (const id of ['garbage', '-1', '12abc', '9'.repeat(40)]) {
        const stream = await open(`/api/orders/${order.order_id}/events`, token, { 'Last-Event-ID': id });
        expect(await stream.next(), id).to.deep.equal({ event: 'reset', data: '{}' });
        expect(summary(await stream.next()), id).to.equal('accepted@2');
      }
    });
  });

  describe('limits', function () {
    it('refuses a caller\'s 6th open stream with 429 rate_limited and Retry-After, and takes one again once a stream is closed', async function () {
      const { token, order } = await aPlacedOrder(h);
      const mine: SseReader[] = [];
      for (let i = 0; i < 5; i++) mine.push(await open(`/api/orders/${order.order_id}/events`, token));
      const sixth = await openEvents(h.url, `/api/orders/${order.order_id}/events`, token);
      expect(sixth.status).to.equal(429);
      expect((sixth as { body: { error: string } }).body).to.include({ error: 'rate_limited', retry_after: 5 });
      expect(sixth.headers.get('retry-after')).to.equal('5');
      await mine[0]!.cancel();
      let again = await openEvents(h.url, `/api/orders/${order.order_id}/events`, token);
      // The server learns of the close asynchronously: up to 5 s on a busy machine.
      for (const deadline = Date.now() + 5_000; again.status === 429 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        again = await openEvents(h.url, `/api/orders/${order.order_id}/events`, token);
      }
      expect(again.status).to.equal(200);
      streams.push((again as { stream: SseReader }).stream);
    });
  });

  describe('how a stream ends', function () {
    it('ends the session\'s streams at logout, and the token is refused when the client reconnects', async function () {
      const { token, order } = await aPlacedOrder(h);
      const stream = await open(`/api/orders/${order.order_id}/events`, token);
      await stream.next();
      expect((await call(h.url, '/api/auth/logout', { method: 'POST', token })).status).to.equal(204);
      // No ticker runs here (fake timers): only the logout can end it.
      await stream.end(5_000);
      expect((await openEvents(h.url, `/api/orders/${order.order_id}/events`, token)).status).to.equal(401);
    });
  });
});

describe('e2e: a live stream ends with its access token', function () {
  const key = newSigningKey();
  const { timers, options } = withFakeTimers();
  const h = useServer({ TOKEN_SECRET_KEY: key.paserk }, options);

  it('ends when the token it was opened with expires, and not before', async function () {
    const staff = await staffToken(h.url);
    // The fake clock was made when the file loaded, minutes before this test runs in the whole
    // suite: bring it to the real time, which the token service checks the re-signed token against.
    timers.advance(Math.max(0, Date.now() - timers.now().getTime()));
    // A token of the kitchen's live session, re-signed to expire a minute from the streams' clock.
    const expiresAt = Math.floor(timers.now().getTime() / 1000) + 60;
    const shortLived = resign(key, staff, (claims) => ({ ...claims, exp: new Date(expiresAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') }));
    const stream = await follow(h.url, '/api/staff/events', shortLived);
    timers.advance(expiresAt * 1000 - timers.now().getTime() - 1_000);
    expect(await stream.quietFor(200), 'still open a second before the expiry').to.equal(true);
    timers.advance(1_000);
    await stream.end(5_000);
    expect(timers.now().getTime()).to.be.at.least(expiresAt * 1000);
  });
});

describe('e2e: live streams at shutdown', function () {
  let server: RunningServer | undefined;
  before(async function () {
    server = await startServer();
  });
  after(async function () {
    await server?.close();
  });

  it('ends every open stream at once: close() resolves well under the 10 s shutdown time-out', async function () {
    const base = server!.url;
    const staff = await staffToken(base);
    const open = await Promise.all([0, 1, 2].map(() => follow(base, '/api/staff/events', staff)));
    const started = Date.now();
    const ended = Promise.all(open.map((stream) => stream.end(8_000)));
    await server!.close();
    server = undefined;
    // Half the time-out: room for a busy machine, yet a shutdown that waited for the streams would take 10 s.
    expect(Date.now() - started).to.be.below(5_000);
    await ended;
  });
});

describe('e2e: live streams at the production periods, on fake timers', function () {
  const { timers, options } = withFakeTimers();
  const h = useServer({}, options);

  it('pings every stream (": ping") once per period, and only opening the stream counts against the rate limit', async function () {
    const { token, order } = await aPlacedOrder(h);
    const quota = async () => Number((await call(h.url, '/api/rate-limit', { token })).body.remaining);
    const before = await quota();
    const stream = await follow(h.url, `/api/orders/${order.order_id}/events`, token);
    try {
      expect(summary(await stream.next())).to.equal('placed@1');
      expect(await stream.next(100).then(() => 'a frame', () => 'nothing'), 'no ping before the clock moves').to.equal('nothing');
      for (let i = 0; i < 4; i++) {
        timers.advance(STREAM_LIMITS.pingMs);
        const frame = await stream.next(5_000).catch(() => null);
        expect(frame, 'no ping after a period: does startStorefront forward options.streams to createHttpApp?').to.deep.equal({ comment: 'ping' });
      }
      expect(STREAM_LIMITS.pingMs, 'DECISIONS: a ping at least every 15 s').to.be.at.most(15_000);
      expect(await quota()).to.equal(before - 1);
    } finally {
      await stream.cancel();
    }
  });

  it('ends a stream within 15 s of its account being disabled elsewhere (the operator CLI), without any request of the client', async function () {
    const { token, order } = await aPlacedOrder(h);
    const stream = await follow(h.url, `/api/orders/${order.order_id}/events`, token);
    await stream.next();
    const me = (await call(h.url, '/api/me', { token })).body as { email: string };
    await h.server.storefront.setCustomerDisabled.execute({ email: me.email, disabled: true });
    expect(await stream.quietFor(100), 'nothing ends it before the clock moves').to.equal(true);
    await timers.run(15_000);
    await stream.end(5_000);
  });

  it('ends a staff stream within 15 s of the account losing its staff role', async function () {
    const staff = await staffToken(h.url);
    const stream = await follow(h.url, '/api/staff/events', staff);
    const kitchen = (await call(h.url, '/api/me', { token: staff })).body as { email: string };
    await h.server.storefront.setCustomerRole.execute({ email: kitchen.email, role: 'customer' });
    try {
      await timers.run(15_000);
      await stream.end(5_000);
    } finally {
      await h.server.storefront.setCustomerRole.execute({ email: kitchen.email, role: 'staff' });
    }
  });
});
