/**
 * What every RateLimiter must do, in real time: the Redis adapter takes its clock from Redis TIME,
 * so no fake clock can be injected. Each test uses its own random key; the waiting tests use a
 * 1-second window so the whole suite stays around 4 s.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { RateLimiter, RateLimitPolicy } from '@storefront/domain';
import type { RateLimitDecision } from '@storefront/domain/adapter-kit';
import { sleep } from '../assertions.js';
import { randomHex } from '../builders.js';

/** Slack for timers firing a little late or early and for the limiter's clock differing from ours. */
const MARGIN_MS = 30;

const aKey = (): string => `contract:${randomHex(12)}`;
const minute = (limit: number): RateLimitPolicy => ({ name: 'contract', limit, windowSeconds: 60 });
const second = (limit: number): RateLimitPolicy => ({ name: 'contract-fast', limit, windowSeconds: 1 });

async function consumeTimes(limiter: RateLimiter, key: string, policy: RateLimitPolicy, n: number): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.consume(key, policy));
  return decisions;
}

export function describeRateLimiterContract(name: string, factory: () => Promise<RateLimiter>): void {
  describe(`${name} (RateLimiter contract)`, function () {
    this.timeout(10_000);

    it('allows exactly `limit` requests and then refuses', async () => {
      const limiter = await factory();
      const key = aKey();
      const decisions = await consumeTimes(limiter, key, minute(5), 7);
      expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, true, true, false, false]);
      expect(decisions.every((d) => d.limit === 5)).to.equal(true);
    });

    it('counts `remaining` down and reports retryAfterMs 0 until the quota is used up', async () => {
      const limiter = await factory();
      const decisions = await consumeTimes(limiter, aKey(), minute(4), 5);
      expect(decisions.map((d) => d.remaining)).to.deep.equal([3, 2, 1, 0, 0]);
      expect(decisions.slice(0, 3).map((d) => d.retryAfterMs)).to.deep.equal([0, 0, 0]);
      const refused = decisions[4]!;
      expect(refused.retryAfterMs).to.be.greaterThan(0).and.at.most(refused.resetMs);
      expect(refused.resetMs).to.be.greaterThan(0).and.at.most(61_000 + MARGIN_MS);
    });

    it('consumes nothing on peek', async () => {
      const limiter = await factory();
      const key = aKey();
      const fresh = await limiter.peek(key, minute(3));
      expect(fresh).to.include({ allowed: true, limit: 3, remaining: 3, retryAfterMs: 0 });
      await limiter.peek(key, minute(3));
      expect((await limiter.consume(key, minute(3))).remaining).to.equal(2);
      expect((await limiter.peek(key, minute(3))).remaining).to.equal(2);
      await consumeTimes(limiter, key, minute(3), 2);
      const spent = await limiter.peek(key, minute(3));
      expect(spent).to.include({ allowed: false, remaining: 0 });
      expect(spent.retryAfterMs).to.be.greaterThan(0);
    });

    it('keeps keys independent', async () => {
      const limiter = await factory();
      const [a, b] = [aKey(), aKey()];
      await consumeTimes(limiter, a, minute(2), 3);
      expect((await limiter.consume(a, minute(2))).allowed).to.equal(false);
      expect(await limiter.consume(b, minute(2))).to.include({ allowed: true, remaining: 1 });
    });

    it('allows exactly `limit` of 200 concurrent requests', async () => {
      const limiter = await factory();
      const key = aKey();
      const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(key, minute(50))));
      expect(decisions.filter((d) => d.allowed)).to.have.length(50);
      expect((await limiter.peek(key, minute(50))).remaining).to.equal(0);
    });

    it('works with a limit in the millions', async () => {
      const limiter = await factory();
      const key = aKey();
      const decisions = await consumeTimes(limiter, key, minute(1_000_000), 100);
      expect(decisions.every((d) => d.allowed)).to.equal(true);
      expect(decisions[99]!.remaining).to.equal(999_900);
      expect((await limiter.peek(key, minute(1_000_000))).remaining).to.equal(999_900);
    });

    it('gives the whole quota back once resetMs has passed', async () => {
      const limiter = await factory();
      const key = aKey();
      const decisions = await consumeTimes(limiter, key, second(3), 4);
      expect(decisions[3]!.allowed).to.equal(false);
      await sleep(decisions[3]!.resetMs + MARGIN_MS);
      const again = await consumeTimes(limiter, key, second(3), 4);
      expect(again.map((d) => d.allowed)).to.deep.equal([true, true, true, false]);
    });

    it('allows a caller that waited retryAfterMs', async () => {
      const limiter = await factory();
      const key = aKey();
      await consumeTimes(limiter, key, second(2), 2);
      await sleep(300);
      const refused = await limiter.consume(key, second(2));
      expect(refused.allowed).to.equal(false);
      await sleep(refused.retryAfterMs + MARGIN_MS);
      expect((await limiter.consume(key, second(2))).allowed).to.equal(true);
    });

    it('does not count refused requests', async () => {
      const limiter = await factory();
      const key = aKey();
      const allowed = await consumeTimes(limiter, key, second(2), 2);
      await sleep(400);
      // Had these counted, they would still be in the window when the first two leave it.
      const refused = await consumeTimes(limiter, key, second(2), 5);
      expect(refused.every((d) => !d.allowed)).to.equal(true);
      const firstTwoGone = allowed[1]!.resetMs - 400;
      await sleep(firstTwoGone + MARGIN_MS);
      const after = await consumeTimes(limiter, key, second(2), 3);
      expect(after.map((d) => d.allowed)).to.deep.equal([true, true, false]);
    });
  });
}
