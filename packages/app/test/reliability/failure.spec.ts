/**
 * Per-operation failure: one failing dependency fails the operations that need it (500) while the
 * others keep answering, /api/status names it (503), and recovery needs no restart. A Redis that
 * accepts connections but never answers costs each rate-limit decision at most the command
 * time-out: the in-process fallback decides instead of the request stalling.
 */
import net from 'node:net';
import { InMemoryRateLimiter } from '@storefront/adapters-memory';
import { createHttpApp } from '@storefront/adapters-http';
import { createRedisAdapters, createRedisClient } from '@storefront/adapters-redis';
import type { HealthProbe, OrderRepository, RateLimiter, RateLimitPolicy, Storefront } from '@storefront/domain';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';
import { FakeClock } from '@storefront/testing';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import type { Logger } from '../../src/logger.js';
import { TYPES } from '../../src/identifiers.js';
import { memoryOnly } from '../mongo-mode.js';
import { ALICE, availableProductIds, call, composeStorefront, expectJsonError, login, RELIABILITY_ENV, sleep, startStorefront, type ComposedServer } from './support.js';

/** Which store operations fail, switched by the tests. */
const outage = { writes: false, reads: false, hang: false, probe: false };

function failing(orders: OrderRepository): OrderRepository {
  const write = <T>(work: () => Promise<T>): Promise<T> => {
    if (outage.hang) return new Promise<T>(() => undefined);
    return outage.writes ? Promise.reject(new Error('E11000 write concern timeout at db-2:27017 (secret-driver-detail)')) : work();
  };
  const reads: ReadonlySet<string> = new Set(['listByCustomer', 'findOrder']);
  // Every method of the port, so that a method added to it is wrapped too.
  return new Proxy(orders, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const call = (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      if (reads.has(property)) {
        return (...args: unknown[]) => (outage.reads ? Promise.reject(new Error('connection pool closed')) : call(...args));
      }
      return (...args: unknown[]) => write(() => call(...args));
    },
  });
}

const probe: HealthProbe = {
  name: 'store',
  check: () => (outage.probe ? Promise.reject(new Error('not primary')) : Promise.resolve()),
};

describe('A store that fails one kind of operation', function () {
  memoryOnly(this, 'fails operations by wrapping the memory order repository and probe; MongoDB outages are in packages/app/test/mongo-connection.spec.ts, PostgreSQL ones in packages/app/test/postgres/outage.spec.ts');
  this.timeout(20_000);
  let server: ComposedServer;
  let token: string;
  let productId: string;
  /** Moved past the status cache's second instead of waiting for it. */
  const clock = new FakeClock(Date.now());

  before(async () => {
    server = await composeStorefront({}, (container) => {
      container.rebind<OrderRepository>(TYPES.OrderRepository).toResolvedValue((memory: { orders: OrderRepository }) => failing(memory.orders), [TYPES.MemoryAdapters]);
      container.rebind<HealthProbe>(TYPES.DatabaseProbe).toConstantValue(probe);
      // A short handler time-out, to see a store call that never returns answered in time.
      container
        .rebind(TYPES.HttpApp)
        .toResolvedValue((storefront: Storefront, logger: Logger) => createHttpApp({ storefront, logger, options: { requestTimeoutMs: 400 } }), [TYPES.Storefront, TYPES.Logger]);
    }, { clock });
    token = (await login(server.url, ALICE.email, ALICE.password)).access_token;
    productId = (await availableProductIds(server.url))[0]!;
  });
  afterEach(() => {
    Object.assign(outage, { writes: false, reads: false, hang: false, probe: false });
  });
  after(() => server?.close());

  const place = (key: string) => call(server.url, '/api/orders', { token, json: { items: [{ product_id: productId, quantity: 1 }] }, headers: { 'idempotency-key': key } });
  const total = async () => {
    const res = await call(server.url, '/api/orders', { token });
    expect(res.status, res.text).to.equal(200);
    return (res.json as { meta: { total: number } }).meta.total;
  };

  it('answers POST /api/orders 500 internal_error while its writes fail, GET /api/orders keeps answering 200, /api/status says 503 store down, and all recover without a restart', async () => {
    const before = await total();
    Object.assign(outage, { writes: true, probe: true });

    const failed = await place('outage-1');
    expectJsonError(failed, 500, 'internal_error');
    expect(failed.text).not.to.match(/E11000|secret-driver-detail|db-2/);
    expectJsonError(await place('outage-1'), 500, 'internal_error');
    expect(await total(), 'GET /api/orders during the write outage').to.equal(before);
    expect((await call(server.url, '/api/products')).status).to.equal(200);
    expect((await call(server.url, '/api/me', { token })).status).to.equal(200);
    clock.advance(1_000); // past any status check cached before the outage
    const status = await call(server.url, '/api/status');
    expect(status.status).to.equal(503);
    expect(status.json).to.deep.equal({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });

    Object.assign(outage, { writes: false, probe: false });
    const placed = await place('outage-1');
    expect(placed.status, `the same Idempotency-Key after recovery: ${placed.text}`).to.equal(201);
    expect(placed.headers['idempotent-replayed'], 'a first placement, not a replay').to.equal(undefined);
    expect(await total()).to.equal(before + 1);
    // The status answers from dependency checks at most 1 s old: the recovery shows once the
    // degraded answer is a second old.
    expect((await call(server.url, '/api/status')).status, 'the degraded answer, reused for a second').to.equal(503);
    clock.advance(1_000);
    const healthy = await call(server.url, '/api/status');
    expect(healthy.status).to.equal(200);
    expect(healthy.json).to.deep.equal({ status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } });
  });

  it('answers GET /api/orders 500 while its reads fail and POST /api/orders keeps answering 201', async () => {
    outage.reads = true;
    expectJsonError(await call(server.url, '/api/orders', { token }), 500, 'internal_error');
    expect((await place('reads-down-1')).status).to.equal(201);
    outage.reads = false;
    expect((await call(server.url, '/api/orders', { token })).status).to.equal(200);
  });

  it('answers a store call that never returns with 503 service_unavailable after the request time-out, and keeps serving other requests meanwhile', async () => {
    outage.hang = true;
    const started = performance.now();
    const [stuck, menu] = await Promise.all([place('hang-1'), call(server.url, '/api/products')]);
    expectJsonError(stuck, 503, 'service_unavailable');
    expect(stuck.headers['retry-after']).to.equal('1');
    expect(performance.now() - started).to.be.within(350, 3_000);
    expect(menu.status).to.equal(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Slow Redis

interface FakeRedis {
  readonly url: string;
  /** Commands received that were never answered. */
  readonly stalled: string[];
  close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 speaking just enough RESP to let ioredis connect (CLIENT SETINFO and the
 * INFO ready check are answered, unless `silent`), then never answering anything else.
 */
async function fakeRedis(options: { silent: boolean }): Promise<FakeRedis> {
  const stalled: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let command = readCommand(pending); command !== null; command = readCommand(pending)) {
        pending = pending.subarray(command.length);
        const name = command.args[0]?.toLowerCase() ?? '';
        if (options.silent) stalled.push(name);
        else if (name === 'client') socket.write('+OK\r\n');
        else if (name === 'info') {
          const info = '# Server\r\nredis_version:7.2.0\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        } else stalled.push(name);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    stalled,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One RESP array of bulk strings from the front of `data`, or null when it is not all there yet. */
function readCommand(data: Buffer): { args: string[]; length: number } | null {
  let pos = 0;
  const line = (): string | null => {
    const end = data.indexOf('\r\n', pos);
    if (end < 0) return null;
    const text = data.subarray(pos, end).toString('latin1');
    pos = end + 2;
    return text;
  };
  const head = line();
  if (head === null || !head.startsWith('*')) return null;
  const args: string[] = [];
  for (let i = Number(head.slice(1)); i > 0; i -= 1) {
    const size = line();
    if (size === null) return null;
    const length = Number(size.slice(1));
    if (data.length < pos + length + 2) return null;
    args.push(data.subarray(pos, pos + length).toString('utf8'));
    pos += length + 2;
  }
  return { args, length: pos };
}

class CountingLimiter implements RateLimiter {
  decisions = 0;
  constructor(private readonly inner: RateLimiter) {}
  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    this.decisions += 1;
    return this.inner.consume(key, policy);
  }
  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    this.decisions += 1;
    return this.inner.peek(key, policy);
  }
}

describe('A Redis that accepts connections and never answers', function () {
  this.timeout(20_000);
  const COMMAND_TIMEOUT_MS = 100;
  /** Scheduling noise on a shared 2-core machine. */
  const MARGIN_MS = 150;
  const policy: RateLimitPolicy = { name: 'slow-redis', limit: 5, windowSeconds: 60 };
  let redis: FakeRedis;
  let client: Redis;
  /** Moved past the fallback's 1 s between retries of Redis instead of waiting for it. */
  let clock: FakeClock;
  beforeEach(() => {
    clock = new FakeClock(Date.now());
  });

  afterEach(async () => {
    client?.disconnect();
    await redis?.close();
  });

  async function timedDecisions(limiter: RateLimiter, count: number): Promise<{ allowed: number; slowest: number }> {
    let allowed = 0;
    let slowest = 0;
    // Three rounds, so that decisions both inside and after the fallback's 1 s retry interval are seen.
    for (let round = 0; round < 3; round += 1) {
      const results = await Promise.all(
        Array.from({ length: count }, async () => {
          const started = performance.now();
          const decision = await limiter.consume('caller-1', policy);
          return { allowed: decision.allowed, ms: performance.now() - started };
        }),
      );
      allowed += results.filter((result) => result.allowed).length;
      slowest = Math.max(slowest, ...results.map((result) => result.ms));
      if (round < 2) clock.advance(1_050);
    }
    return { allowed, slowest };
  }

  it('lets each rate-limit decision time out after the command time-out and be made by the in-process fallback, which still enforces the limit', async () => {
    redis = await fakeRedis({ silent: false });
    client = createRedisClient(redis.url, { commandTimeoutMs: COMMAND_TIMEOUT_MS });
    client.on('error', () => undefined);
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
    const fallback = new CountingLimiter(new InMemoryRateLimiter({ clock }));
    let degraded = 0;
    const { limiter } = createRedisAdapters({ client, fallback, clock, onDegraded: () => (degraded += 1) });

    const { allowed, slowest } = await timedDecisions(limiter, 10);

    expect(redis.stalled.filter((name) => name.startsWith('eval')).length, 'scripts sent to Redis and never answered: every decision of the first round, and of the two after the 1 s retry interval').to.equal(30);
    expect(slowest, 'slowest decision, ms').to.be.below(COMMAND_TIMEOUT_MS + MARGIN_MS);
    expect(fallback.decisions, 'decisions made by the fallback').to.equal(30);
    expect(limiter.isDegraded).to.equal(true);
    expect(degraded, 'the outage is reported once').to.equal(1);
    expect(allowed, 'degraded, not open: the limit of 5 still holds').to.equal(policy.limit);
  });

  it('decides through the fallback at once while ioredis cannot even complete its ready check', async () => {
    redis = await fakeRedis({ silent: true });
    client = createRedisClient(redis.url, { commandTimeoutMs: COMMAND_TIMEOUT_MS });
    client.on('error', () => undefined);
    const fallback = new CountingLimiter(new InMemoryRateLimiter({ clock }));
    const { limiter } = createRedisAdapters({ client, fallback, clock });

    const { allowed, slowest } = await timedDecisions(limiter, 10);

    expect(slowest).to.be.below(COMMAND_TIMEOUT_MS + MARGIN_MS);
    expect(fallback.decisions).to.equal(30);
    expect(allowed).to.equal(policy.limit);
  });

  it('keeps the HTTP API answering within the command time-out per request while /api/status says 503 rate_limiter down', async () => {
    redis = await fakeRedis({ silent: false });
    const server = await startStorefront({ ...RELIABILITY_ENV, REDIS_URL: redis.url });
    try {
      await sleep(200); // let ioredis finish its handshake, so that commands are sent and time out
      const answers = await Promise.all(Array.from({ length: 10 }, () => call(server.url, '/api/products')));
      for (const res of answers) {
        expect(res.status).to.equal(200);
        expect(res.ms, 'ms per request').to.be.below(COMMAND_TIMEOUT_MS + MARGIN_MS + 100);
      }
      const status = await call(server.url, '/api/status');
      expect(status.status).to.equal(503);
      expect(status.json).to.deep.equal({ status: 'degraded', checks: { store: 'ok', rate_limiter: 'down' } });
      expect(redis.stalled.length, 'commands Redis never answered').to.be.greaterThan(0);
    } finally {
      await server.close();
    }
  });
});
