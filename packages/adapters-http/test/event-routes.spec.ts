/**
 * The live order streams on a real socket (createHttpApp over the memory adapters, fetch as the
 * client): the wire format, who may open which stream, resuming with Last-Event-ID, the per-caller
 * limit, pings, and every way a stream ends. The streams' ticker and deadlines run on a FakeTimers
 * that moves only when a test says; real-time waits are generous bounds on what is "at once".
 */
import type { Caller, Storefront } from '@storefront/domain';
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { orderJson } from '../src/mappers.js';
import { openStream, placeFor, serveEvents, signIn, type EventServer, type OpenedStream } from './event-server.js';
import { FakeTimers, type SseFrame } from '@storefront/testing';
import { STREAM_LIMITS } from '../src/limits.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The streams' clock and timers: they move only when a test says (starting now: tokens are real). */
function fakeStreamTimers(): { timers: FakeTimers; streams: { timers: FakeTimers; clock: FakeTimers } } {
  const timers = new FakeTimers(Date.now());
  return { timers, streams: { timers, clock: timers } };
}

const dataOf = (frame: SseFrame | null): Record<string, unknown> => JSON.parse(frame?.data ?? 'null') as Record<string, unknown>;

/** `<event> <status>@<version>` of an order.status frame, `<event> <order_id>` of a placed one, `reset`. */
function summary(frame: SseFrame | null): string {
  if (frame === null) return 'end';
  if (frame.event === 'reset') return 'reset';
  const data = dataOf(frame);
  return frame.event === 'order.placed' ? `placed ${String(data['order_id'])}` : `${String(data['status'])}@${String(data['version'])}`;
}

describe('live order streams over HTTP', () => {
  let server: EventServer;
  let storefront: Storefront;
  let alice: { token: string; caller: Caller };
  let bob: { token: string; caller: Caller };
  let kitchen: { token: string; caller: Caller };
  const opened: OpenedStream[] = [];

  /** Opens a stream and remembers it, so that every test leaves none behind. */
  async function open(path: string, token: string | undefined, headers: Record<string, string> = {}): Promise<OpenedStream> {
    const stream = await openStream(server.url, path, token, headers);
    opened.push(stream);
    return stream;
  }

  before(async () => {
    server = await serveEvents({ streams: fakeStreamTimers().streams });
    storefront = server.storefront;
    [alice, bob, kitchen] = await Promise.all([signIn(storefront, 'alice'), signIn(storefront, 'bob'), signIn(storefront, 'kitchen')]);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.events.cancel()));
  });
  after(() => server.close());

  describe('GET /api/orders/{order_id}/events', () => {
    it('answers the owner 200 text/event-stream, no-store, unbuffered, then retry: 3000 and the order\'s current state as one order.status', async () => {
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      const { res, events } = await open(`/api/orders/${order.orderId}/events`, alice.token);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('x-accel-buffering')).to.equal('no');
      expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
      expect(await events.next()).to.deep.equal({ retry: '3000' });
      const snapshot = await events.next();
      expect(snapshot?.event).to.equal('order.status');
      expect(snapshot?.id).to.match(/^\d+$/);
      expect(dataOf(snapshot)).to.deep.equal({ order_id: order.orderId, status: 'placed', version: 1, at: order.createdAt.toISOString() });
    });

    it('writes each move as the next order.status event, with increasing ids and the reason of a final one', async () => {
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      const { events } = await open(`/api/orders/${order.orderId}/events`, alice.token);
      await events.next();
      const snapshot = await events.next();
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'cancelled', reason: 'no rice left' });
      const accepted = await events.nextEvent();
      const cancelled = await events.nextEvent();
      expect([summary(accepted), summary(cancelled)]).to.deep.equal(['accepted@2', 'cancelled@3']);
      expect(dataOf(cancelled)['reason']).to.equal('no rice left');
      const ids = [snapshot, accepted, cancelled].map((frame) => Number(frame?.id));
      expect(ids[1]).to.be.greaterThan(ids[0]!);
      expect(ids[2]).to.be.greaterThan(ids[1]!);
    });

    it('serves staff the stream of any order', async () => {
      const order = await placeFor(storefront, bob.caller.customer.customerId);
      const { res, events } = await open(`/api/orders/${order.orderId}/events`, kitchen.token);
      expect(res.status).to.equal(200);
      await events.next();
      expect(summary(await events.next())).to.equal('placed@1');
    });

    it('answers a stranger, an unknown id and a string that cannot be an id 404 not_found, as the order itself', async () => {
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      for (const path of [`/api/orders/${order.orderId}/events`, '/api/orders/ord_0000000000000000000000/events', '/api/orders/nonsense/events']) {
        const { res } = await open(path, bob.token);
        expect(res.status, path).to.equal(404);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(((await res.json()) as { error: string }).error).to.equal('not_found');
      }
    });

    it('answers 401 without a Bearer token, and never takes one from the URL', async () => {
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      for (const query of ['', `?access_token=${alice.token}`]) {
        const { res } = await open(`/api/orders/${order.orderId}/events${query}`, undefined);
        expect(res.status, query).to.equal(401);
        expect(((await res.json()) as { error: string }).error).to.equal('unauthorized');
      }
    });
  });

  describe('GET /api/staff/events', () => {
    it('gives staff every order.placed, the order exactly as GET /api/orders/{id} renders it, then its order.status events', async () => {
      const { res, events } = await open('/api/staff/events', kitchen.token);
      expect(res.status).to.equal(200);
      expect(await events.next()).to.deep.equal({ retry: '3000' });
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      const detail = await fetch(`${server.url}/api/orders/${order.orderId}`, { headers: { Authorization: `Bearer ${alice.token}` } });
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      const placed = await events.nextEvent();
      expect(placed?.event).to.equal('order.placed');
      expect(dataOf(placed)).to.deep.equal(await detail.json());
      expect(dataOf(placed)).to.deep.equal(JSON.parse(JSON.stringify(orderJson(order))));
      const moved = await events.nextEvent();
      expect(moved?.event).to.equal('order.status');
      expect(dataOf(moved)).to.include({ order_id: order.orderId, status: 'accepted', version: 2 });
    });

    it('answers no token 401, a customer 403 forbidden, and a token in the URL 401', async () => {
      expect((await open('/api/staff/events', undefined)).res.status).to.equal(401);
      expect((await open(`/api/staff/events?access_token=${kitchen.token}`, undefined)).res.status).to.equal(401);
      const { res } = await open('/api/staff/events', alice.token);
      expect(res.status).to.equal(403);
      expect(((await res.json()) as { error: string }).error).to.equal('forbidden');
    });
  });

  describe('Last-Event-ID', () => {
    it('replays to the kitchen exactly the events after the id it saw last, none twice, none missing, then goes on live', async () => {
      const first = await open('/api/staff/events', kitchen.token);
      await first.events.next();
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      const seen = await first.events.nextEvent();
      await first.events.cancel();
      // While the client is away.
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      const other = await placeFor(storefront, bob.caller.customer.customerId);
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'preparing' });

      const again = await open('/api/staff/events', kitchen.token, { 'Last-Event-ID': ` ${seen!.id!} ` });
      expect(await again.events.next()).to.deep.equal({ retry: '3000' });
      const replayed = [await again.events.nextEvent(), await again.events.nextEvent(), await again.events.nextEvent()];
      // Orders interleave in the order they were published; one order's events come in version order.
      const summaries = replayed.map(summary);
      expect([...summaries].sort()).to.deep.equal(['accepted@2', `placed ${other.orderId}`, 'preparing@3'].sort());
      expect(summaries.indexOf('accepted@2')).to.be.below(summaries.indexOf('preparing@3'));
      expect(replayed.map((frame) => Number(frame?.id))).to.deep.equal([1, 2, 3].map((n) => Number(seen!.id) + n));
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'ready' });
      expect(summary(await again.events.nextEvent())).to.equal('ready@4');
      await expectNothingMore(again);
    });

    it('replays to an order\'s stream only that order\'s missed moves, without a snapshot', async () => {
      const order = await placeFor(storefront, alice.caller.customer.customerId);
      const first = await open(`/api/orders/${order.orderId}/events`, alice.token);
      await first.events.next();
      const snapshot = await first.events.next();
      await first.events.cancel();
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      await placeFor(storefront, alice.caller.customer.customerId);
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'preparing' });
      const again = await open(`/api/orders/${order.orderId}/events`, alice.token, { 'Last-Event-ID': snapshot!.id! });
      await again.events.next();
      expect([summary(await again.events.nextEvent()), summary(await again.events.nextEvent())]).to.deep.equal(['accepted@2', 'preparing@3']);
      await expectNothingMore(again);
    });

    for (const [label, id] of [
      ['garbage', 'abc'],
      ['an id beyond the head', '999999999'],
      ['an over-long value', '1'.repeat(5_000)],
    ] as const) {
      it(`answers ${label} with one event: reset (no id), then the order's state`, async () => {
        const order = await placeFor(storefront, alice.caller.customer.customerId);
        const { res, events } = await open(`/api/orders/${order.orderId}/events`, alice.token, { 'Last-Event-ID': id });
        expect(res.status).to.equal(200);
        await events.next();
        expect(await events.next()).to.deep.equal({ event: 'reset', data: '{}' });
        expect(summary(await events.next())).to.equal('placed@1');
      });
    }
  });

  describe('the per-caller limit', () => {
    it('refuses a 6th open stream with 429 rate_limited and Retry-After, whatever the route, and takes a new one once one is closed', async () => {
      const order = await placeFor(storefront, kitchen.caller.customer.customerId);
      const streams: OpenedStream[] = [];
      for (let i = 0; i < 5; i++) {
        const stream = await open(i % 2 === 0 ? '/api/staff/events' : `/api/orders/${order.orderId}/events`, kitchen.token);
        expect(stream.res.status, `stream ${i + 1}`).to.equal(200);
        await stream.events.next();
        streams.push(stream);
      }
      const sixth = await open('/api/staff/events', kitchen.token);
      expect(sixth.res.status).to.equal(429);
      expect(sixth.res.headers.get('retry-after')).to.equal('5');
      expect(await sixth.res.json()).to.include({ error: 'rate_limited', retry_after: 5 });
      // Another caller is not affected.
      expect((await open(`/api/orders/${(await placeFor(storefront, bob.caller.customer.customerId)).orderId}/events`, bob.token)).res.status).to.equal(200);

      await streams[0]!.events.cancel();
      await eventuallyOpens(() => open('/api/staff/events', kitchen.token));
    });

    it('gives the slot back when the feed refuses (404) and for a HEAD, which never streams', async () => {
      for (let i = 0; i < 6; i++) {
        expect((await open('/api/orders/ord_0000000000000000000000/events', alice.token)).res.status).to.equal(404);
        const head = await fetch(`${server.url}/api/staff/events`, { method: 'HEAD', headers: { Authorization: `Bearer ${kitchen.token}` } });
        expect(head.status).to.equal(200);
        expect(head.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      }
      for (let i = 0; i < 5; i++) expect((await open('/api/staff/events', kitchen.token)).res.status).to.equal(200);
    });

    it('counts opening a stream once against the rate limit, and its pings not at all', async () => {
      const { timers, streams } = fakeStreamTimers();
      const pinging = await serveEvents({ streams });
      try {
        const { token } = await signIn(pinging.storefront, 'bob');
        const remaining = async () => ((await (await fetch(`${pinging.url}/api/rate-limit`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { remaining: number }).remaining;
        const before = await remaining();
        const order = await placeFor(pinging.storefront, (await pinging.storefront.authenticate.execute(token)).customer.customerId);
        const { events } = await openStream(pinging.url, `/api/orders/${order.orderId}/events`, token);
        await events.next();
        await events.next();
        for (let i = 0; i < 3; i++) {
          timers.advance(STREAM_LIMITS.pingMs);
          expect(await events.next(5_000)).to.deep.equal({ comment: 'ping' });
        }
        expect(await remaining()).to.equal(before - 1);
        await events.cancel();
      } finally {
        await pinging.close();
      }
    });
  });

  describe('how a stream ends', () => {
    it('ends at once when its session logs out on this instance, and leaves the caller\'s other sessions\' streams open', async () => {
      const session = await signIn(storefront, 'bob');
      const order = await placeFor(storefront, bob.caller.customer.customerId);
      const doomed = await open(`/api/orders/${order.orderId}/events`, session.token);
      const spared = await open(`/api/orders/${order.orderId}/events`, bob.token);
      await doomed.events.next();
      await spared.events.next();
      const logout = await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${session.token}` } });
      expect(logout.status).to.equal(204);
      // No ticker runs here (fake timers): only the logout can end it.
      await doomed.events.end(5_000);
      await storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted' });
      expect((await spared.events.nextEvent())?.event).to.equal('order.status');
      expect(summary(await spared.events.nextEvent())).to.equal('accepted@2');
    });

    it('ends on shutdown (endStreams), and the client sees the end', async () => {
      const own = await serveEvents();
      try {
        const { token } = await signIn(own.storefront, 'kitchen');
        const { events } = await openStream(own.url, '/api/staff/events', token);
        await events.next();
        own.app.endStreams();
        expect(await events.end(5_000)).to.deep.equal([]);
      } finally {
        await own.close();
      }
    });

    it('ends within 15 s of a revocation made elsewhere: a logout on another instance, a disabled account, a staff role taken away', async () => {
      const { timers, streams } = fakeStreamTimers();
      const own = await serveEvents({ streams });
      try {
        const bobs = await signIn(own.storefront, 'bob');
        const order = await placeFor(own.storefront, bobs.caller.customer.customerId);
        const loggedOut = await openStream(own.url, `/api/orders/${order.orderId}/events`, bobs.token);
        await loggedOut.events.next();
        // The session store is shared: another instance's logout is this call, not this app's route.
        await own.storefront.logout.execute(bobs.caller);
        await timers.run(15_000);
        await loggedOut.events.end(5_000);

        const alices = await signIn(own.storefront, 'alice');
        const disabled = await openStream(own.url, `/api/orders/${(await placeFor(own.storefront, alices.caller.customer.customerId)).orderId}/events`, alices.token);
        await disabled.events.next();
        await own.storefront.setCustomerDisabled.execute({ email: 'alice@example.com', disabled: true });
        await timers.run(15_000);
        await disabled.events.end(5_000);

        const cook = await signIn(own.storefront, 'kitchen');
        const demoted = await openStream(own.url, '/api/staff/events', cook.token);
        await demoted.events.next();
        await own.storefront.setCustomerRole.execute({ email: 'kitchen@example.com', role: 'customer' });
        await timers.run(15_000);
        await demoted.events.end(5_000);
      } finally {
        await own.close();
      }
    });

    it('ends when its access token expires', async () => {
      const crypto = createCryptoAdapters({ scrypt: { logN: 10 } });
      // Tokens of a minute: the stream must end at their expiry, not after the usual 900 s.
      const shortLived = { issue: (claims: { sub: string; sid: string }) => crypto.tokens.issue(claims, 60), verify: (token: string) => crypto.tokens.verify(token) };
      const { timers, streams } = fakeStreamTimers();
      const own = await serveEvents({ ports: { tokens: shortLived }, streams });
      try {
        const { token, caller } = await signIn(own.storefront, 'kitchen');
        const { res, events } = await openStream(own.url, '/api/staff/events', token);
        expect(res.status).to.equal(200);
        await events.next();
        // The stream's deadline is on the streams' clock: it ends when that clock reaches the expiry.
        timers.advance(caller.claims.exp * 1000 - timers.now().getTime() - 1_000);
        expect(await events.quietFor(100), 'open a second before').to.equal(true);
        timers.advance(1_000);
        await events.end(5_000);
        expect(timers.now().getTime()).to.be.at.least(caller.claims.exp * 1000);
      } finally {
        await own.close();
      }
    });
  });

  describe('resets from a log that has moved on', () => {
    it('answers an id older than the window with a reset, then the kitchen goes on live', async () => {
      const small = await serveEvents({ log: { keepAtLeast: 2, keepForMs: 0 } });
      try {
        const { token, caller } = await signIn(small.storefront, 'kitchen');
        for (let i = 0; i < 4; i++) await placeFor(small.storefront, caller.customer.customerId);
        const { events } = await openStream(small.url, '/api/staff/events', token, { 'Last-Event-ID': '1' });
        await events.next();
        expect(await events.next()).to.deep.equal({ event: 'reset', data: '{}' });
        const order = await placeFor(small.storefront, caller.customer.customerId);
        const live = await events.nextEvent();
        expect([live?.id, summary(live)]).to.deep.equal(['5', `placed ${order.orderId}`]);
        // An id still inside the window replays.
        const inside = await openStream(small.url, '/api/staff/events', token, { 'Last-Event-ID': '3' });
        await inside.events.next();
        expect([(await inside.events.next())?.id, (await inside.events.next())?.id]).to.deep.equal(['4', '5']);
        await Promise.all([events.cancel(), inside.events.cancel()]);
      } finally {
        await small.close();
      }
    });
  });

  async function expectNothingMore(stream: OpenedStream): Promise<void> {
    const next = stream.events.nextEvent(80).then(summary, () => 'nothing');
    expect(await next).to.equal('nothing');
  }
});

/** A slot given back is seen soon after (the server learns of a client's close asynchronously). */
async function eventuallyOpens(open: () => Promise<OpenedStream>): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    const stream = await open();
    if (stream.res.status === 200) return;
    await sleep(10);
  }
  throw new Error('no slot was given back');
}
