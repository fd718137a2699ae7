import { describeRateLimiterContract } from '@storefront/testing';
import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { RedisRateLimiter } from '../src/index.js';
import { connect, startTestRedis, type TestRedis } from './redis-server.js';

describe('RedisRateLimiter', function () {
  let redis: TestRedis | null = null;
  let client: Redis | undefined;

  before(async function () {
    this.timeout(120_000);
    redis = await startTestRedis();
    if (redis === null) return this.skip();
    client = connect(redis.url);
  });
  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  describeRateLimiterContract('RedisRateLimiter', async () => new RedisRateLimiter(client!));

  it('keeps one hash per caller that expires when its newest bucket stops counting', async () => {
    const limiter = new RedisRateLimiter(client!, { keyPrefix: 'storefront-test:' });
    const key = `ttl-${Date.now()}-${Math.random()}`;
    await limiter.consume(key, { name: 'p', limit: 10, windowSeconds: 2 });
    const redisKey = `storefront-test:p:${key}`;
    expect(await client!.type(redisKey)).to.equal('hash');
    const ttl = await client!.pttl(redisKey);
    expect(ttl).to.be.greaterThan(1500).and.at.most(2000);
  });

  it('writes nothing on a peek of an unknown caller', async () => {
    const limiter = new RedisRateLimiter(client!, { keyPrefix: 'storefront-test:' });
    const key = `peek-${Date.now()}-${Math.random()}`;
    const decision = await limiter.peek(key, { name: 'p', limit: 3, windowSeconds: 60 });
    expect(decision).to.include({ allowed: true, remaining: 3 });
    expect(await client!.exists(`storefront-test:p:${key}`)).to.equal(0);
  });
});
