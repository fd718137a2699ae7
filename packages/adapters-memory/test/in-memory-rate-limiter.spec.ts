import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { RateLimitPolicy } from '@storefront/domain';
import { FakeClock } from '@storefront/testing';
import { InMemoryRateLimiter } from '../src/index.js';

const policy: RateLimitPolicy = { name: 'default', limit: 3, windowSeconds: 60 };

describe('InMemoryRateLimiter', () => {
  it('decides with the injected clock', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock });
    for (let i = 0; i < 3; i++) await limiter.consume('k', policy);
    const refused = await limiter.consume('k', policy);
    expect(refused.allowed).to.equal(false);
    clock.advance(refused.retryAfterMs);
    expect((await limiter.consume('k', policy)).allowed).to.equal(true);
  });

  it('tells onDecision of each consume, as it answers, and of no peek', async () => {
    const decided: [boolean, number, string][] = [];
    const limiter = new InMemoryRateLimiter({ clock: new FakeClock(), onDecision: (decision, seen) => decided.push([decision.allowed, decision.remaining, seen.name]) });
    for (let i = 0; i < 4; i++) await limiter.consume('k', policy);
    await limiter.peek('k', policy);
    expect(decided).to.deep.equal([
      [true, 2, 'default'],
      [true, 1, 'default'],
      [true, 0, 'default'],
      [false, 0, 'default'],
    ]);
  });

  it('does not start tracking a caller on peek', async () => {
    const limiter = new InMemoryRateLimiter({ clock: new FakeClock() });
    await limiter.peek('nobody', policy);
    expect(limiter.size).to.equal(0);
  });

  it('keeps counters of two policies apart even for the same key', async () => {
    const limiter = new InMemoryRateLimiter({ clock: new FakeClock() });
    for (let i = 0; i < 3; i++) await limiter.consume('k', policy);
    expect((await limiter.consume('k', { ...policy, name: 'login' })).remaining).to.equal(2);
  });

  it('forgets callers whose requests have all left the window', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock, sweepEvery: 100 });
    for (let i = 0; i < 500; i++) await limiter.consume(`old-${i}`, policy);
    expect(limiter.size).to.equal(500);
    clock.advance(61_000);
    for (let i = 0; i < 500; i++) await limiter.consume(`new-${i}`, policy);
    // A sweep runs once as many decisions as callers have passed: the 500 old ones are gone.
    expect(limiter.size).to.be.at.most(500);
  });

  it('never tracks more than maxKeys callers, evicting the least recently seen (to the second)', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock, maxKeys: 1000 });
    await limiter.consume('busy', policy);
    for (let i = 0; i < 5000; i++) {
      await limiter.consume(`flood-${i}`, policy);
      if (i % 500 === 0) {
        clock.advance(1_000);
        await limiter.consume('busy', policy);
      }
      expect(limiter.size).to.be.at.most(1000);
    }
    expect((await limiter.peek('busy', policy)).remaining).to.equal(0);
    expect((await limiter.peek('flood-0', policy)).remaining).to.equal(3);
  });

  it('refreshes a caller\'s recency at most once a second, so a caller seen only within one second can be evicted', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock, maxKeys: 2 });
    await limiter.consume('a', policy);
    await limiter.consume('b', policy);
    await limiter.consume('a', policy); // same second: 'a' stays the least recently seen
    await limiter.consume('c', policy);
    expect((await limiter.peek('a', policy)).remaining).to.equal(3);
    expect((await limiter.peek('b', policy)).remaining).to.equal(2);
    clock.advance(1_000);
    await limiter.consume('b', policy); // a second later: 'b' moves to the most recent end
    await limiter.consume('d', policy);
    expect((await limiter.peek('b', policy)).remaining).to.equal(1);
    expect((await limiter.peek('c', policy)).remaining).to.equal(3);
  });
});
