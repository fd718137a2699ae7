/**
 * Live order events across instances (docs/decisions.md, "Live order updates"): two real processes,
 * A and B, memory stores, sharing one private Redis (with persistence, as production runs it). The
 * kitchen watches on B; customers order and the kitchen works on A. B's staff stream must carry
 * every event of A's orders, and keep doing so through a Redis crash: moves on A go on answering
 * 200 while Redis is down (the order store is A's memory; the events wait in its outbox), and once
 * Redis is back B's stream gets each of them exactly once, in version order per order.
 *
 * Not tested here: an order stream (GET /api/orders/{id}/events) opened on B for an order placed on
 * A. In memory mode each instance has its own orders, so B answers 404 for A's order; that stream
 * across instances needs a shared store (MongoDB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { SseReader, sleep, startPrivateRedisOrSkip, type PrivateRedis, type SseFrame } from '@storefront/testing';
import { call, getMenu, login, orderableWithoutOptions, placeOrder } from '../e2e/support.js';
import { startInstance, type Instance } from './processes.js';

interface StreamEvent {
  readonly id: string;
  readonly type: string;
  readonly orderId: string;
  readonly version: number;
  readonly status: string;
}

/**
 * A staff stream, read in the background and reconnecting with Last-Event-ID whenever it ends (as an
 * EventSource would, after 200 ms): every event it got, in the order it got them.
 */
class StaffStream {
  readonly events: StreamEvent[] = [];
  readonly resets: number[] = [];
  /** What broke the reading, if anything did: thrown by the next `until`, or by `close`. */
  private failure: unknown;

  private constructor(private readonly reader: SseReader) {
    void this.pump();
  }

  /** Resolves once the first connection is answered 200. */
  static async open(base: string, token: string): Promise<StaffStream> {
    const get = (lastEventId: string | undefined): Promise<Response> => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      return fetch(`${base}/api/staff/events`, { headers });
    };
    const first = await get(undefined);
    expect(first.status, 'GET /api/staff/events').to.equal(200);
    expectEventStream(first);
    // A refused connection or a refusal is tried again; a 200 that is not a stream fails the test.
    const reconnect = async (lastEventId: string | undefined): Promise<Response | null> => {
      const response = await get(lastEventId).catch(() => null);
      if (response === null) return null;
      if (response.status === 200) return expectEventStream(response);
      await response.body?.cancel().catch(() => undefined);
      return null;
    };
    return new StaffStream(new SseReader(first, { reconnect, reconnectDelayMs: 200 }));
  }

  async close(): Promise<void> {
    await this.reader.cancel();
    if (this.failure !== undefined) throw this.failure;
  }

  /** Waits until `done` holds for the events so far (checked on every event), or fails after `ms`. */
  async until(done: (events: readonly StreamEvent[]) => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (done(this.events)) return;
      if (Date.now() > deadline) throw new Error(`B's stream: ${what} not within ${ms} ms; got ${JSON.stringify(this.events.map((e) => `${e.id}:${e.type}:${e.version}`))}`);
      await sleep(50);
    }
  }

  private async pump(): Promise<void> {
    try {
      // Longer than the test may take: a frame that does not come shows in `until` instead.
      for (let frame = await this.reader.nextEvent(120_000); frame !== null; frame = await this.reader.nextEvent(120_000)) this.record(frame);
    } catch (error) {
      this.failure = error;
    }
  }

  private record(frame: SseFrame): void {
    if (frame.event === 'reset') this.resets.push(this.events.length);
    const { id, event: type, data } = frame;
    if (type === undefined || id === undefined || data === undefined) return;
    const parsed = JSON.parse(data) as { order_id: string; version: number; status: string };
    this.events.push({ id, type, orderId: parsed.order_id, version: parsed.version, status: parsed.status });
  }
}

function expectEventStream(response: Response): Response {
  expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
  return response;
}

const NEXT: Readonly<Record<string, string>> = { placed: 'accepted', accepted: 'preparing', preparing: 'ready', ready: 'completed' };

describe('Live order events across two instances sharing one Redis', function () {
  this.timeout(60_000);
  let dir: string;
  let redis: PrivateRedis;
  let a: Instance;
  let b: Instance;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'storefront-events-redis-'));
    redis = await startPrivateRedisOrSkip(this, 'live order events across instances', { persistDir: dir });
    // Memory stores (each instance its own orders and accounts), the demo data, limits out of the
    // way; a generous Redis time-out, so that a slow answer on a loaded machine is not an outage.
    const env = {
      STOREFRONT_STORE: 'memory',
      STOREFRONT_DEMO_DATA: 'true',
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '2000',
      RATE_LIMIT_MAX: '100000',
      LOGIN_RATE_LIMIT_MAX: '1000',
    };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  });
  afterEach(function () {
    // What the instances said (warnings and worse) is the first thing to read when this fails.
    if (this.currentTest?.state !== 'failed') return;
    for (const [name, instance] of [['A', a], ['B', b]] as const) console.error(`\n  --- instance ${name} (warn and above):\n${instance?.logged(40) ?? ''}`);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("delivers A's orders to B's kitchen stream, each event once and in order, through a Redis crash", async () => {
    // Memory-mode accounts are each instance's own: the kitchen logs in on both, the customer on A.
    const kitchenB = (await login(b.url, 'kitchen@example.com', 'kitchen-password')).access_token;
    const kitchenA = (await login(a.url, 'kitchen@example.com', 'kitchen-password')).access_token;
    const alice = (await login(a.url, 'alice@example.com', 'alice-password')).access_token;
    const dish = (await getMenu(a.url)).find(orderableWithoutOptions)!;
    const status = new Map<string, string>();
    const place = async (): Promise<string> => {
      const placed = await placeOrder(a.url, alice, [{ product_id: dish.product_id, quantity: 1 }]);
      expect(placed.status, `POST /api/orders: ${placed.text}`).to.equal(201);
      status.set(placed.body.order_id, 'placed');
      return placed.body.order_id as string;
    };
    const moveOn = async (orderId: string): Promise<number> => {
      const next = NEXT[status.get(orderId)!]!;
      const moved = await call(a.url, `/api/staff/orders/${orderId}/status`, { token: kitchenA, json: { status: next } });
      status.set(orderId, next);
      return moved.status;
    };

    const stream = await StaffStream.open(b.url, kitchenB);
    try {
      // Redis up: placed on A, seen on B; then a move.
      const first = await place();
      await stream.until((events) => events.some((e) => e.orderId === first && e.type === 'order.placed'), 5_000, 'order.placed of the first order');
      expect(await moveOn(first)).to.equal(200);
      await stream.until((events) => events.some((e) => e.orderId === first && e.version === 2), 5_000, 'order.status v2 of the first order');
      const orders = [first, await place(), await place()];
      expect(await moveOn(orders[1]!)).to.equal(200);

      // Redis crashes for about 3 s while the kitchen on A goes on (and a customer orders).
      await redis.kill();
      const during: number[] = [];
      const downSince = Date.now();
      for (const orderId of orders) during.push(await moveOn(orderId));
      orders.push(await place());
      while (Date.now() - downSince < 3_000) {
        for (const orderId of orders) if (status.get(orderId) !== 'completed' && Date.now() - downSince < 3_000) during.push(await moveOn(orderId));
        await sleep(300);
      }
      expect(during.every((s) => s === 200), `moves while Redis was down: ${during.join(', ')}`).to.equal(true);
      expect(during.length).to.be.at.least(4);
      await redis.start();

      // Back: every order completed on A; B's stream must end up with every version of every order.
      for (const orderId of orders) while (status.get(orderId) !== 'completed') expect(await moveOn(orderId)).to.equal(200);
      const expected = orders.length * 5;
      await stream.until((events) => events.filter((e) => orders.includes(e.orderId)).length >= expected, 20_000, `${expected} events of ${orders.length} orders`);
      await sleep(500); // anything more (a duplicate) would come now

      const events = stream.events;
      expect(stream.resets, 'resets on B (Redis kept its data: nothing to start over from)').to.deep.equal([]);
      expect(events.filter((e) => !orders.includes(e.orderId)), 'events of other orders').to.deep.equal([]);
      for (const orderId of orders) {
        const mine = events.filter((e) => e.orderId === orderId);
        expect(mine.map((e) => `${e.type}:${e.version}:${e.status}`), `events of ${orderId}`).to.deep.equal([
          'order.placed:1:placed',
          'order.status:2:accepted',
          'order.status:3:preparing',
          'order.status:4:ready',
          'order.status:5:completed',
        ]);
      }
      const ids = events.map((e) => Number(e.id));
      expect(ids, 'event ids, increasing, each once').to.deep.equal([...new Set(ids)].sort((x, y) => x - y));
    } finally {
      await stream.close();
    }

    // Nobody crashed: both processes run and answer their status check.
    expect(a.running() && b.running(), 'both instances still running').to.equal(true);
    for (const instance of [a, b]) {
      const answered = await fetch(`${instance.url}/api/status`);
      expect([200, 503], `GET /api/status on ${instance.url}`).to.include(answered.status);
      await answered.body?.cancel();
    }
  });
});
