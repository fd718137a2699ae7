import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { RateLimitPolicy } from '@storefront/domain';
import { bucketWidthMs, decideSlidingWindow, SLIDING_WINDOW_BUCKETS, type WindowBuckets } from '../src/index.js';

// 60 s window → 1 s buckets; a bucket's requests count until 60 s after its latest request.
const policy: RateLimitPolicy = { name: 'default', limit: 3, windowSeconds: 60 };

/** Three requests at 10.5 s, 20 s and 30 s: the quota is then spent. */
function spent(): WindowBuckets {
  const buckets: WindowBuckets = [];
  for (const now of [10_500, 20_000, 30_000]) decideSlidingWindow(buckets, policy, now, true);
  return buckets;
}

describe('decideSlidingWindow', () => {
  it('allows `limit` requests with exact remaining, reset and retry-after values', () => {
    const buckets: WindowBuckets = [];
    expect(decideSlidingWindow(buckets, policy, 10_500, true)).to.deep.equal({ allowed: true, limit: 3, remaining: 2, resetMs: 60_000, retryAfterMs: 0 });
    expect(decideSlidingWindow(buckets, policy, 20_000, true)).to.deep.equal({ allowed: true, limit: 3, remaining: 1, resetMs: 60_000, retryAfterMs: 0 });
    // The oldest request (10.5 s) frees the first slot at 70.5 s.
    expect(decideSlidingWindow(buckets, policy, 30_000, true)).to.deep.equal({ allowed: true, limit: 3, remaining: 0, resetMs: 60_000, retryAfterMs: 40_500 });
  });

  it('refuses once the quota is spent, and a refused request does not count', () => {
    const buckets = spent();
    const before = buckets.map((bucket) => [...bucket]);
    expect(decideSlidingWindow(buckets, policy, 40_000, true)).to.deep.equal({ allowed: false, limit: 3, remaining: 0, resetMs: 50_000, retryAfterMs: 30_500 });
    expect(buckets).to.deep.equal(before);
  });

  it('allows a caller exactly when its retry-after has passed, not a millisecond before', () => {
    const buckets = spent();
    const { retryAfterMs } = decideSlidingWindow(buckets, policy, 40_000, true);
    expect(decideSlidingWindow(buckets, policy, 40_000 + retryAfterMs - 1, true).allowed).to.equal(false);
    expect(decideSlidingWindow(buckets, policy, 40_000 + retryAfterMs, true)).to.include({ allowed: true, remaining: 0 });
  });

  it('gives the whole quota back exactly at reset', () => {
    const buckets = spent();
    const { resetMs } = decideSlidingWindow(buckets, policy, 30_000, false);
    expect(decideSlidingWindow(buckets, policy, 30_000 + resetMs - 1, false).remaining).to.equal(2);
    expect(decideSlidingWindow(buckets, policy, 30_000 + resetMs, false)).to.deep.equal({ allowed: true, limit: 3, remaining: 3, resetMs: 0, retryAfterMs: 0 });
    expect(buckets).to.deep.equal([]);
  });

  it('counts nothing on a peek', () => {
    const buckets: WindowBuckets = [];
    for (let i = 0; i < 5; i++) expect(decideSlidingWindow(buckets, policy, 1_000 + i, false).remaining).to.equal(3);
    expect(buckets).to.deep.equal([]);
  });

  it('counts requests of the same bucket in one counter that remembers the latest of them', () => {
    const buckets: WindowBuckets = [];
    for (const now of [5_000, 5_400, 5_999, 6_000]) decideSlidingWindow(buckets, { ...policy, limit: 10 }, now, true);
    expect(buckets).to.deep.equal([[5, 3, 5_999], [6, 1, 6_000]]);
  });

  it('never reports a reset or retry-after longer than the window', () => {
    const buckets: WindowBuckets = [];
    for (let now = 0; now < 3_000; now += 7) {
      const decision = decideSlidingWindow(buckets, { ...policy, limit: 50 }, now, true);
      expect(decision.resetMs).to.be.at.most(60_000);
      expect(decision.retryAfterMs).to.be.at.most(60_000);
    }
  });

  it('keeps at most one bucket more than the window holds, even with a limit of a million', () => {
    const big: RateLimitPolicy = { name: 'big', limit: 1_000_000, windowSeconds: 60 };
    const buckets: WindowBuckets = [];
    let now = 1_000_000;
    for (let i = 0; i < 5_000; i++) {
      for (let j = 0; j < 20; j++) decideSlidingWindow(buckets, big, now, true);
      expect(buckets.length).to.be.at.most(SLIDING_WINDOW_BUCKETS + 1);
      now += 97;
    }
    const { remaining } = decideSlidingWindow(buckets, big, now, false);
    expect(remaining).to.equal(1_000_000 - buckets.reduce((sum, [, count]) => sum + count, 0));
    expect(remaining).to.be.below(1_000_000 - 20 * 600);
  });

  it('never lets any window of `windowSeconds` hold more than `limit` allowed requests', () => {
    const tight: RateLimitPolicy = { name: 'tight', limit: 5, windowSeconds: 1 };
    const buckets: WindowBuckets = [];
    const allowedAt: number[] = [];
    let seed = 42;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    let now = 0;
    for (let i = 0; i < 3_000; i++) {
      now += Math.floor(random() * 60);
      if (decideSlidingWindow(buckets, tight, now, true).allowed) allowedAt.push(now);
    }
    expect(allowedAt.length).to.be.greaterThan(100);
    for (let i = 0; i < allowedAt.length; i++) {
      const inWindow = allowedAt.filter((t) => t >= allowedAt[i]! && t < allowedAt[i]! + 1_000).length;
      expect(inWindow, `window starting at ${allowedAt[i]}`).to.be.at.most(5);
    }
  });

  it('cuts the window into 60 buckets of at least 1 ms', () => {
    expect(bucketWidthMs(policy)).to.equal(1_000);
    expect(bucketWidthMs({ ...policy, windowSeconds: 1 })).to.equal(17);
    expect(bucketWidthMs({ ...policy, windowSeconds: 0.01 })).to.equal(1);
  });
});
