/**
 * The FallbackRateLimiter told of what it decides (the hooks metrics count with), over two
 * in-process limiters: the primary's failures injected at its boundary, time from a fake clock.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { type RateLimitPolicy } from '@storefront/domain';
import { InMemoryRateLimiter } from '@storefront/adapters-memory';
import { FakeClock, Faults } from '@storefront/testing';
import { FallbackRateLimiter, type RateLimitDecider } from '../src/index.js';

const policy: RateLimitPolicy = { name: 'default', limit: 2, windowSeconds: 60 };

describe('FallbackRateLimiter hooks', () => {
  it('tells each consume decision and who made it, every failure of the primary, and never a peek', async () => {
    const clock = new FakeClock();
    const primary = new Faults(new InMemoryRateLimiter({ clock }));
    const decided: [boolean, string, RateLimitDecider][] = [];
    const failures: unknown[] = [];
    const limiter = new FallbackRateLimiter(primary.target, new InMemoryRateLimiter({ clock }), {
      clock,
      onDecision: (decision, seen, by) => decided.push([decision.allowed, seen.name, by]),
      onPrimaryError: (error) => failures.push(error),
    });
    await limiter.consume('k', policy);
    await limiter.peek('k', policy);
    primary.down('consume');
    await limiter.consume('k', policy); // tries the primary: fails, the fallback decides
    await limiter.consume('k', policy); // within the retry interval: the fallback, the primary untried
    await limiter.consume('k', policy); // the fallback's third of a limit of 2
    clock.advance(1_000);
    primary.heal();
    await limiter.consume('k', policy); // tried again and back: the primary's second of 2
    await limiter.consume('k', policy);
    expect(decided).to.deep.equal([
      [true, 'default', 'primary'],
      [true, 'default', 'fallback'],
      [true, 'default', 'fallback'],
      [false, 'default', 'fallback'],
      [true, 'default', 'primary'],
      [false, 'default', 'primary'],
    ]);
    expect(failures).to.have.length(1);
  });
});
