/**
 * The shared rate limiter (REDIS_URL) end to end: instances share one quota, and when Redis goes
 * away the limiter decides in-process (degraded, never open) until Redis is back. Needs a Redis:
 * E2E_REDIS_URL / REDIS_URL or redis://127.0.0.1:6379 for the first part, the redis-server binary
 * for the outage part; each part is skipped, saying why, when its Redis is not there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it, before, after } from 'mocha';
import { expect } from 'chai';
import { freePort, redisAnswers } from '@storefront/testing';
import type { RunningServer } from './support.js';
import { baseOf, call, expectError, sleep, startServer } from './support.js';

const SHARED_REDIS = process.env['E2E_REDIS_URL'] ?? process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A loopback address of its own for each test, so that quotas left in Redis by an earlier run never matter. */
function freshIp(): string {
  const r = (n: number): number => Math.floor(Math.random() * n);
  return `127.${1 + r(250)}.${r(256)}.${1 + r(250)}`;
}


async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

// A generous Redis command time-out: on a loaded machine a slow answer would hand decisions to each
// instance's own fallback limiter, and these tests are about the shared one.
const LIMITED = { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60', REDIS_COMMAND_TIMEOUT_MS: '2000' };

/**
 * Two instances sharing the Redis at SHARED_REDIS, started before the suite's tests and closed after
 * them; the suite is skipped, saying why, when that Redis does not answer.
 */
function twoInstancesOnSharedRedis(env: Record<string, string>): { a: () => RunningServer; b: () => RunningServer } {
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;
  before(async function () {
    this.timeout(30_000);
    if (!(await redisAnswers(SHARED_REDIS))) {
      console.log(`      (no Redis at ${SHARED_REDIS}: set E2E_REDIS_URL to run these)`);
      this.skip();
    }
    a = await startServer({ ...env, REDIS_URL: SHARED_REDIS });
    b = await startServer({ ...env, REDIS_URL: SHARED_REDIS });
  });
  after(async function () {
    await Promise.all([a?.close(), b?.close()]);
  });
  return { a: () => a!, b: () => b! };
}

describe('e2e: rate limits shared through Redis', function () {
  const servers = twoInstancesOnSharedRedis(LIMITED);

  it('reports the Redis limiter ok on GET /api/status', async function () {
    const res = await call(baseOf(servers.a()), '/api/status', { localAddress: freshIp() });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok', checks: { store: 'ok', rate_limiter: 'ok' } });
  });

  it('gives two instances one quota per client', async function () {
    const ip = freshIp();
    for (const server of [servers.a(), servers.a(), servers.a(), servers.b(), servers.b()]) {
      expect((await call(baseOf(server), '/api/products', { localAddress: ip })).status).to.equal(200);
    }
    expectError(await call(baseOf(servers.a()), '/api/products', { localAddress: ip }), 429, 'rate_limited');
    expectError(await call(baseOf(servers.b()), '/api/products', { localAddress: ip }), 429, 'rate_limited');
    const status = await call(baseOf(servers.b()), '/api/rate-limit', { localAddress: ip });
    expect(status.body).to.include({ limit: 5, remaining: 0, scope: 'ip' });
  });

  it('lets exactly 5 of 16 concurrent requests spread over both instances through', async function () {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(baseOf(i % 2 === 0 ? servers.a() : servers.b()), '/api/products', { localAddress: ip })),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(5);
    expect(results.filter((r) => r.status === 429)).to.have.length(11);
  });
});

describe('e2e: login limits shared through Redis (2 attempts a minute per client, so 20 per email)', function () {
  const servers = twoInstancesOnSharedRedis({ LOGIN_RATE_LIMIT_MAX: '2', REDIS_COMMAND_TIMEOUT_MS: '2000' });

  it('locks nobody out across instances, and still refuses the 21st attempt on one email from any address on either', async function () {
    // One account on both instances (each has its own memory store); its email is new to Redis.
    const email = `shared-login-${process.pid}-${Date.now()}@example.com`;
    for (const server of [servers.a(), servers.b()]) await server.storefront.registerCustomer.execute({ email, name: 'Shared', password: 'right-password' });
    const login = (server: RunningServer, password: string, ip: string) => call(baseOf(server), '/api/auth/login', { json: { email, password }, localAddress: ip });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(i % 2 === 0 ? servers.a() : servers.b(), 'wrong-password', freshIp())).status);
    expect(statuses, 'more wrong passwords than one client may send').to.deep.equal([401, 401, 401, 401]);
    expect((await login(servers.b(), 'right-password', freshIp())).status, 'the owner, from a fresh address').to.equal(200);
    // 15 more from fresh addresses (20 in all with the owner's), spread over both instances.
    for (let i = 0; i < 15; i++) expect((await login(i % 2 === 0 ? servers.b() : servers.a(), 'wrong-password', freshIp())).status).to.equal(401);
    expectError(await login(servers.a(), 'right-password', freshIp()), 429, 'rate_limited');
  });
});

describe('e2e: Redis outage', function () {
  let port = 0;
  let redis: ChildProcess | undefined;
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;

  async function startRedis(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child.on('error', () => undefined);
    redis = child;
    if (!(await waitFor(() => redisAnswers(`redis://127.0.0.1:${port}`, 200), 5_000))) throw new Error('redis-server did not start');
  }

  async function stopRedis(): Promise<void> {
    const child = redis;
    redis = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  async function statusOf(server: RunningServer): Promise<number> {
    return (await call(baseOf(server), '/api/status', { localAddress: '127.0.0.250' })).status;
  }

  before(async function () {
    this.timeout(30_000);
    port = await freePort();
    try {
      await startRedis();
    } catch {
      console.log('      (redis-server could not be started: skipping the outage tests)');
      this.skip();
    }
    const url = `redis://127.0.0.1:${port}`;
    a = await startServer({ ...LIMITED, RATE_LIMIT_MAX: '100', REDIS_URL: url });
    b = await startServer({ ...LIMITED, RATE_LIMIT_MAX: '100', REDIS_URL: url });
  });
  after(async function () {
    this.timeout(15_000);
    await Promise.all([a?.close(), b?.close()]);
    await stopRedis();
  });

  it('degrades, never opens, while Redis is down, and shares the quota again when it is back', async function () {
    this.timeout(30_000);
    expect(await statusOf(a!)).to.equal(200);
    await stopRedis();

    // Down: the status says so (its checks are reused for up to 1 s), the other operations still
    // answer, and the limit still holds.
    expect(await waitFor(async () => (await statusOf(a!)) === 503, 5_000), 'GET /api/status says 503 once Redis is down').to.equal(true);
    const degraded = await call(baseOf(a!), '/api/status', { localAddress: '127.0.0.251' });
    expect(degraded.status).to.equal(503);
    expect(degraded.body).to.deep.equal({ status: 'degraded', checks: { store: 'ok', rate_limiter: 'down' } });
    // One instance's in-process limiter decides alone: the first 100 requests pass, the rest are refused.
    const ip = freshIp();
    for (let i = 0; i < 110; i++) {
      const res = await call(baseOf(a!), '/api/products', { localAddress: ip });
      if (i < 100) expect(res.status, `request ${i + 1} while Redis is down`).to.equal(200);
      else expectError(res, 429, 'rate_limited');
    }

    // Back: both instances find Redis again and decide together.
    await startRedis();
    const back = await waitFor(async () => (await statusOf(a!)) === 200 && (await statusOf(b!)) === 200, 15_000);
    expect(back, 'GET /api/status is 200 again on both instances').to.equal(true);
    const sharing = await waitFor(async () => {
      const probe = freshIp();
      await call(baseOf(a!), '/api/products', { localAddress: probe });
      const seenByB = await call(baseOf(b!), '/api/rate-limit', { localAddress: probe });
      await call(baseOf(b!), '/api/products', { localAddress: probe });
      const seenByA = await call(baseOf(a!), '/api/rate-limit', { localAddress: probe });
      return seenByB.body.remaining === 99 && seenByA.body.remaining === 98;
    }, 10_000);
    expect(sharing, 'each instance sees the other\'s requests again').to.equal(true);
    const shared = freshIp();
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => call(baseOf(i % 2 === 0 ? a! : b!), '/api/products', { localAddress: shared })),
    );
    expect(results.filter((r) => r.status === 200), 'one quota across both instances').to.have.length(100);
  });
});
