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
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { hasRedisServer, privateRedis, type PrivateRedis } from '@storefront/testing';
import { startInstance, type Instance } from './processes.js';

interface StreamEvent {
  readonly id: string;
  readonly type: string;
  readonly orderId: string;
  readonly version: number;
  readonly status: string;
}

/**
 * A staff stream read with node:http, reconnecting with Last-Event-ID whenever it ends (as an
 * EventSource would, without its delay): every event it got, in the order it got them.
 */
class StaffStream {
  readonly events: StreamEvent[] = [];
  readonly resets: number[] = [];
  connections = 0;
  private lastId: string | undefined;
  private request: http.ClientRequest | undefined;
  private closed = false;

  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  /** Resolves once the first connection is answered 200. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => this.connect(resolve, reject));
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
  }

  /** Waits until `done` holds for the events so far (checked on every event), or fails after `ms`. */
  async until(done: (events: readonly StreamEvent[]) => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this.events)) {
      if (Date.now() > deadline) throw new Error(`B's stream: ${what} not within ${ms} ms; got ${JSON.stringify(this.events.map((e) => `${e.id}:${e.type}:${e.version}`))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private connect(opened: () => void, failed: (error: Error) => void): void {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (this.lastId !== undefined) headers['last-event-id'] = this.lastId;
    this.connections++;
    const request = http.get(`${this.base}/api/staff/events`, { headers, agent: false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        failed(new Error(`GET /api/staff/events: ${response.statusCode}`));
        return;
      }
      expect(response.headers['content-type']).to.match(/^text\/event-stream/);
      opened();
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.onFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      });
      response.on('error', () => undefined);
      response.on('close', () => this.reconnect());
    });
    request.on('error', (error) => {
      if (this.connections === 1) failed(error);
      else this.reconnect();
    });
    this.request = request;
  }

  private reconnect(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (!this.closed) this.connect(() => undefined, () => this.reconnect());
    }, 200);
  }

  private onFrame(frame: string): void {
    const fields = new Map<string, string>();
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(': ');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
    }
    const type = fields.get('event');
    if (type === 'reset') this.resets.push(this.events.length);
    const id = fields.get('id');
    const data = fields.get('data');
    if (type === undefined || id === undefined || data === undefined) return;
    this.lastId = id;
    const parsed = JSON.parse(data) as { order_id: string; version: number; status: string };
    this.events.push({ id, type, orderId: parsed.order_id, version: parsed.version, status: parsed.status });
  }
}

async function json(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? null : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function login(base: string, email: string, password: string): Promise<string> {
  const { status, body } = await json(base, '/api/auth/login', { body: { email, password } });
  expect(status, `login ${email}`).to.equal(200);
  return body.access_token as string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const NEXT: Readonly<Record<string, string>> = { placed: 'accepted', accepted: 'preparing', preparing: 'ready', ready: 'completed' };

describe('Live order events across two instances sharing one Redis', function () {
  this.timeout(60_000);
  let dir: string;
  let redis: PrivateRedis;
  let a: Instance;
  let b: Instance;

  before(async function () {
    if (!hasRedisServer()) {
      console.warn('\n  !!! SKIPPING live order events across instances: no redis-server binary on this machine to start a private Redis.\n');
      return this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'storefront-events-redis-'));
    redis = await privateRedis({ persistDir: dir });
    await redis.start();
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
    const kitchenB = await login(b.url, 'kitchen@example.com', 'kitchen-password');
    const kitchenA = await login(a.url, 'kitchen@example.com', 'kitchen-password');
    const alice = await login(a.url, 'alice@example.com', 'alice-password');
    const products = (await json(a.url, '/api/products')).body.products as { product_id: string; available: boolean; option_groups?: { min: number }[] }[];
    const dish = products.find((p) => p.available && (p.option_groups ?? []).every((g) => g.min === 0))!;
    const status = new Map<string, string>();
    const place = async (): Promise<string> => {
      const placed = await json(a.url, '/api/orders', { token: alice, body: { items: [{ product_id: dish.product_id, quantity: 1 }] } });
      expect(placed.status, `POST /api/orders: ${JSON.stringify(placed.body)}`).to.equal(201);
      status.set(placed.body.order_id, 'placed');
      return placed.body.order_id as string;
    };
    const moveOn = async (orderId: string): Promise<number> => {
      const next = NEXT[status.get(orderId)!]!;
      const moved = await json(a.url, `/api/staff/orders/${orderId}/status`, { token: kitchenA, body: { status: next } });
      status.set(orderId, next);
      return moved.status;
    };

    const stream = new StaffStream(b.url, kitchenB);
    await stream.open();
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
      stream.close();
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
