/**
 * GET /metrics (METRICS_PORT) scraped and read by a Prometheus text-format parser: the request
 * count and latency by route template and status, rate-limit decisions (in-process, Redis, and the
 * fallback while Redis fails), store and Redis errors, the login hashing queue, open event streams
 * and the process metrics; and nothing listening without METRICS_PORT.
 */
import net from 'node:net';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { createTestDatabaseOrSkip, freePort } from '@storefront/testing';
import { ConfigError } from '../src/config.js';
import { startStorefront, type RunningStorefront } from '../src/server.js';
import { TEST_ENV } from './helpers.js';
import { redisAnswers } from '@storefront/testing';
import { listening, listeningSettled, scrape, scrapeUntil, type Scrape } from './metrics-support.js';

const REQUESTS = 'storefront_http_requests_total';
const DURATIONS = 'storefront_http_request_duration_seconds';
const DECISIONS = 'storefront_rate_limit_decisions_total';
const ORDER_ID = '0b9d6a4e-5a1f-4c3e-9a57-2f4c1d8e7b60';

async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(res.status).to.equal(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function status(url: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}

describe('Metrics (METRICS_PORT)', () => {
  describe('on the memory database, with a tight rate limit', () => {
    // Anonymous requests share 127.0.0.1's quota of 6; each signed-in caller has its own.
    const env = { ...TEST_ENV, METRICS_PORT: '0', RATE_LIMIT_MAX: '6' };
    let running: RunningStorefront;
    let whileStreaming: Scrape;
    let last: Scrape;

    before(async () => {
      running = await startStorefront(env);
      const { url } = running;
      expect(await status(`${url}/api/products`)).to.equal(200);
      const alice = await login(url, 'alice@example.com', 'alice-password');
      expect(await status(`${url}/api/orders/${ORDER_ID}`, { headers: { authorization: `Bearer ${alice}` } })).to.equal(404);
      expect(await status(`${url}/api/no-such-thing/${ORDER_ID}`)).to.equal(404);
      const kitchen = await login(url, 'kitchen@example.com', 'kitchen-password');
      const stream = new AbortController();
      const events = await fetch(`${url}/api/staff/events`, { headers: { authorization: `Bearer ${kitchen}` }, signal: stream.signal });
      expect(events.status).to.equal(200);
      whileStreaming = await scrape(running.metricsUrl!);
      stream.abort();
      // Two more of the quota's 6, then two refusals.
      expect([await status(`${url}/api/products`), await status(`${url}/api/products`)]).to.deep.equal([200, 200]);
      expect([await status(`${url}/api/products`), await status(`${url}/api/products`)]).to.deep.equal([429, 429]);
      last = await scrapeUntil(running.metricsUrl!, (s) => s.value('storefront_event_streams_open', 'gauge') === 0 && s.has(REQUESTS, 'counter', { method: 'GET', route: '/api/staff/events', status: '200' }));
    });

    after(() => running.close());

    it('serves GET /metrics on a loopback port of its own, and nothing else there', async () => {
      expect(running.metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(running.metricsUrl!).port).to.not.equal(String(running.port));
      expect(await status(new URL('/api/products', running.metricsUrl).href)).to.equal(404);
      expect(await status(running.metricsUrl!, { method: 'POST' })).to.equal(405);
    });

    it('counts requests by method, route template and status: an id in the path never becomes a label', () => {
      const count = (method: string, route: string, code: string): number => last.value(REQUESTS, 'counter', { method, route, status: code });
      expect(count('GET', '/api/products', '200')).to.equal(3);
      expect(count('GET', '/api/products', '429')).to.equal(2);
      expect(count('POST', '/api/auth/login', '200')).to.equal(2);
      expect(count('GET', '/api/orders/:order_id', '404')).to.equal(1);
      expect(count('GET', 'unmatched', '404')).to.equal(1);
      expect(count('GET', '/api/staff/events', '200')).to.equal(1);
      const routes = last.labelValues(REQUESTS, 'counter', 'route');
      expect(routes.filter((route) => route.includes(ORDER_ID) || route.includes('no-such-thing'))).to.deep.equal([]);
    });

    it('times the same requests in a histogram, in seconds', () => {
      const products = last.histogram(DURATIONS, { method: 'GET', route: '/api/products', status: '200' });
      expect(products?.count).to.equal(3);
      expect(products?.buckets['+Inf']).to.equal(3);
      expect(products?.sum).to.be.greaterThan(0).and.lessThan(10);
      expect(last.histogram(DURATIONS, { method: 'GET', route: '/api/orders/:order_id', status: '404' })?.count).to.equal(1);
      expect(last.labelValues(DURATIONS, 'histogram', 'route').filter((route) => route.includes(ORDER_ID))).to.deep.equal([]);
    });

    it('counts rate-limit decisions by policy, decision and limiter (the in-process one without Redis)', () => {
      const decided = (policy: string, decision: string): number => last.value(DECISIONS, 'counter', { policy, decision, limiter: 'memory' });
      // 6 anonymous (products ×3, logins ×2, the unmatched path) and one each for Alice and the kitchen.
      expect(decided('default', 'allowed')).to.equal(8);
      expect(decided('default', 'refused')).to.equal(2);
      // Each login is counted per client address and, under its own ceiling, per email.
      expect(decided('login', 'allowed')).to.equal(2);
      expect(decided('login-email', 'allowed')).to.equal(2);
      expect(last.labelValues(DECISIONS, 'counter', 'limiter')).to.not.include.members(['redis', 'fallback']);
    });

    it('shows the open event streams while one is open, and none once it ended', () => {
      expect(whileStreaming.value('storefront_event_streams_open', 'gauge')).to.equal(1);
      expect(last.value('storefront_event_streams_open', 'gauge')).to.equal(0);
    });

    it('reports no database or Redis error, the limiter not degraded, and no login waiting for a hash', () => {
      expect(last.value('storefront_store_errors_total', 'counter')).to.equal(0);
      expect(last.family('storefront_redis_errors_total', 'counter').data).to.deep.equal([]);
      expect(last.value('storefront_rate_limiter_degraded', 'gauge')).to.equal(0);
      expect(last.value('storefront_login_hash_queue_depth', 'gauge')).to.equal(0);
    });

    it('exposes the process metrics', () => {
      expect(last.value('process_cpu_user_seconds_total', 'counter')).to.be.greaterThan(0);
      expect(last.value('process_resident_memory_bytes', 'gauge')).to.be.greaterThan(0);
      expect(last.value('nodejs_eventloop_lag_seconds', 'gauge')).to.be.at.least(0);
      expect(last.value('nodejs_heap_size_used_bytes', 'gauge')).to.be.greaterThan(0);
      expect(last.family('nodejs_gc_duration_seconds', 'histogram').type).to.equal('histogram');
    });
  });

  it('shows logins waiting for a password hash as the queue depth', async () => {
    // One hash at a time, slow enough (logN 15) for the others to be seen waiting.
    const running = await startStorefront({ ...TEST_ENV, METRICS_PORT: '0', SCRYPT_LOG_N: '15', SCRYPT_MAX_CONCURRENCY: '1', SCRYPT_MAX_WAIT_MS: '10000' });
    try {
      const logins = ['alice', 'bob', 'alice', 'bob'].map((name) => login(running.url, `${name}@example.com`, `${name}-password`));
      const busy = await scrapeUntil(running.metricsUrl!, (s) => s.value('storefront_login_hash_queue_depth', 'gauge') > 0);
      expect(busy.value('storefront_login_hash_queue_depth', 'gauge')).to.be.within(1, 3);
      expect(busy.value('storefront_login_hash_active', 'gauge')).to.equal(1);
      await Promise.all(logins);
      const idle = await scrape(running.metricsUrl!);
      expect(idle.value('storefront_login_hash_queue_depth', 'gauge')).to.equal(0);
      expect(idle.value('storefront_login_hash_active', 'gauge')).to.equal(0);
    } finally {
      await running.close();
    }
  });

  it('counts a request failed by an unreachable database as a database error', async function () {
    // The instance is ready (migrated, seeded) before PostgreSQL goes away: a request refused at the
    // start gate is a 503, not a database error. PostgreSQL is reached through a relay the test cuts.
    this.timeout(60_000);
    const database = await createTestDatabaseOrSkip(this, 'storefront_metrics');
    const sockets = new Set<net.Socket>();
    const target = new URL(database.url);
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(database.url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as net.AddressInfo).port);
    const running = await startStorefront({
      ...TEST_ENV,
      METRICS_PORT: '0',
      STOREFRONT_STORE: 'postgres',
      DATABASE_URL: relayed.toString(),
      PG_TIMEOUT_MS: '500',
      STOREFRONT_DEMO_DATA: 'true',
      TOKEN_SECRET_KEY: generateSigningKey(),
    });
    try {
      for (let tries = 0; (await status(`${running.url}/api/status`)) !== 200; tries++) {
        if (tries > 300) throw new Error('the instance never became ready');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const token = await login(running.url, 'alice@example.com', 'alice-password');
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      expect(await status(`${running.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).to.equal(500);
      const scraped = await scrape(running.metricsUrl!);
      expect(scraped.value('storefront_store_errors_total', 'counter')).to.be.at.least(1);
      expect(scraped.value(REQUESTS, 'counter', { method: 'GET', route: '/api/me', status: '500' })).to.equal(1);
    } finally {
      await running.close();
      await database.drop();
    }
  });

  it('counts Redis errors and the fallback deciding while Redis cannot be reached', async () => {
    const closed = await freePort();
    const running = await startStorefront({ ...TEST_ENV, METRICS_PORT: '0', REDIS_URL: `redis://127.0.0.1:${closed}` });
    try {
      expect(await status(`${running.url}/api/products`)).to.equal(200);
      const scraped = await scrapeUntil(running.metricsUrl!, (s) => s.value('storefront_redis_errors_total', 'counter', { source: 'client' }) > 0);
      expect(scraped.value(DECISIONS, 'counter', { policy: 'default', decision: 'allowed', limiter: 'fallback' })).to.equal(1);
      expect(scraped.value(DECISIONS, 'counter', { policy: 'default', decision: 'allowed', limiter: 'redis' })).to.equal(0);
      expect(scraped.value('storefront_redis_errors_total', 'counter', { source: 'rate_limiter' })).to.equal(1);
      expect(scraped.value('storefront_redis_errors_total', 'counter', { source: 'client' })).to.be.greaterThan(0);
      expect(scraped.value('storefront_rate_limiter_degraded', 'gauge')).to.equal(1);
    } finally {
      await running.close();
    }
  });

  it('counts the decisions Redis makes as limiter="redis"', async function () {
    const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    if (!(await redisAnswers(redisUrl))) this.skip();
    // The shared Redis keeps other tests' counts for 127.0.0.1: a limit none of them reaches.
    const running = await startStorefront({ ...TEST_ENV, METRICS_PORT: '0', REDIS_URL: redisUrl, REDIS_COMMAND_TIMEOUT_MS: '2000', RATE_LIMIT_MAX: '100000000' });
    try {
      // The client connects in the background: until it is ready the fallback decides (and is
      // counted as such), so ask until Redis has decided one request.
      let scraped = await scrape(running.metricsUrl!);
      for (let attempt = 0; attempt < 30; attempt++) {
        expect(await status(`${running.url}/api/products`)).to.equal(200);
        scraped = await scrape(running.metricsUrl!);
        if ((scraped.value(DECISIONS, 'counter', { policy: 'default', decision: 'allowed', limiter: 'redis' }) ?? 0) >= 1) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(scraped.value(DECISIONS, 'counter', { policy: 'default', decision: 'allowed', limiter: 'redis' })).to.be.at.least(1);
      expect(scraped.value('storefront_rate_limiter_degraded', 'gauge')).to.equal(0);
    } finally {
      await running.close();
    }
  });

  it('listens for nothing else without METRICS_PORT', async () => {
    const before = await listeningSettled();
    const running = await startStorefront({ ...TEST_ENV });
    try {
      expect(running.metricsUrl).to.equal(undefined);
      expect(listening() - before).to.equal(1);
      expect(await status(`${running.url}/metrics`)).to.equal(404);
    } finally {
      await running.close();
    }
    // The same count with METRICS_PORT is one more: what the first count would catch.
    const again = await listeningSettled();
    const withMetrics = await startStorefront({ ...TEST_ENV, METRICS_PORT: '0' });
    try {
      expect(listening() - again).to.equal(2);
    } finally {
      await withMetrics.close();
    }
  });

  it('names METRICS_PORT when its port is taken, and leaves nothing listening', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    const before = await listeningSettled();
    try {
      const failure = await startStorefront({ ...TEST_ENV, METRICS_PORT: String(port) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(ConfigError);
      expect((failure as ConfigError).message).to.equal(`METRICS_PORT ${port} cannot be used on METRICS_HOST 127.0.0.1: the address is already in use`);
      expect(await listeningSettled(before)).to.equal(before);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
