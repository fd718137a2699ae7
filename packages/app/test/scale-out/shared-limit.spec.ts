import { expect } from 'chai';
import { Redis } from 'ioredis';
import { after, before, describe, it } from 'mocha';
import { startPrivateRedisOrSkip, type PrivateRedis } from '@storefront/testing';
import { startInstance, type Instance } from './processes.js';

async function statusesOf(urls: readonly string[], path = '/api/products'): Promise<number[]> {
  return Promise.all(urls.map(async (url) => (await fetch(`${url}${path}`)).status));
}

describe('Scaling out: two instances sharing one Redis', function () {
  this.timeout(60_000);
  let redis: PrivateRedis;
  let a: Instance;
  let b: Instance;
  let client: Redis;

  before(async function () {
    redis = await startPrivateRedisOrSkip(this, 'scale-out tests');
    const env = { REDIS_URL: redis.url, RATE_LIMIT_MAX: '40', RATE_LIMIT_WINDOW_SECONDS: '60', REDIS_COMMAND_TIMEOUT_MS: '2000' };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
  });
  after(async () => {
    client?.disconnect();
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('allows at most the limit of 100 anonymous requests spread over both instances', async () => {
    const urls = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a.url : b.url));
    const statuses = await statusesOf(urls);
    expect(statuses.filter((s) => s === 200)).to.have.length(40);
    expect(statuses.filter((s) => s === 429)).to.have.length(60);
    expect(await client.keys('storefront:rl:*')).to.deep.equal(['storefront:rl:default:ip:127.0.0.1']);
  });

  it('answers without a 5xx while Redis is down, and goes back to Redis when it returns', async () => {
    await client.flushall();
    client.disconnect();
    await redis.stop();

    // Each instance's fallback limiter counts its own ten requests of its own 40: none is refused.
    const during = await statusesOf(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a.url : b.url)));
    expect(during).to.deep.equal(Array.from({ length: 20 }, () => 200));
    const status = await fetch(`${a.url}/api/status`);
    expect(status.status).to.equal(503);
    expect(await status.json()).to.deep.include({ status: 'degraded', checks: { store: 'ok', rate_limiter: 'down' } });

    await redis.start();
    client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    // ioredis reconnects with a back-off of up to 2 s; the limiter retries Redis at most once a second.
    // GET /api/rate-limit counts against its own per-address limit (the `poll` policy) as well.
    const sharedKeys = ['storefront:rl:default:ip:127.0.0.1', 'storefront:rl:poll:/api/rate-limit:ip:127.0.0.1'];
    let keys: string[] = [];
    for (let attempt = 0; attempt < 40 && keys.length < sharedKeys.length; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await statusesOf([a.url, b.url], '/api/rate-limit');
      await statusesOf([a.url, b.url]);
      keys = (await client.keys('storefront:rl:*')).sort();
    }
    expect(keys).to.deep.equal(sharedKeys);
  });
});

describe('The shared limit under 200 concurrent requests', function () {
  this.timeout(60_000);
  let redis: PrivateRedis;
  let a: Instance;
  let b: Instance;

  before(async function () {
    redis = await startPrivateRedisOrSkip(this, 'the shared limit under concurrent requests');
    // A generous command time-out: on a loaded 2-core machine a slow answer would hand the decision
    // to each instance's fallback limiter, and this test is about the shared one.
    const env = { REDIS_URL: redis.url, RATE_LIMIT_MAX: '50', RATE_LIMIT_WINDOW_SECONDS: '60', REDIS_COMMAND_TIMEOUT_MS: '5000' };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('lets exactly the limit through, with no race admitting extra requests', async () => {
    const statuses = await statusesOf(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a.url : b.url)));
    expect(statuses.filter((s) => s === 200)).to.have.length(50);
    expect(statuses.filter((s) => s === 429)).to.have.length(150);
  });
});
