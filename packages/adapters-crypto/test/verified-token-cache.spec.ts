import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, type Clock, type TokenService } from '@storefront/domain';
import type { AccessClaims } from '@storefront/domain/adapter-kit';
import { FakeClock } from '@storefront/testing';
import { CachingTokenService } from '../src/index.js';

/** Tokens are `tok:<sub>:<sid>:<exp>`; counts verifications; refuses `bad…` and expired tokens. */
class CountingTokens implements TokenService {
  verifications = 0;
  constructor(private readonly clock: Clock) {}

  async issue(claims: { readonly sub: string; readonly sid: string }, ttlSeconds: number): Promise<string> {
    return `tok:${claims.sub}:${claims.sid}:${Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds}`;
  }

  async verify(token: string): Promise<AccessClaims> {
    this.verifications += 1;
    const [kind, sub, sid, exp] = token.split(':');
    if (kind !== 'tok' || sub === undefined || sid === undefined || exp === undefined) {
      throw new DomainError('invalid_token', 'The access token is invalid.');
    }
    if (Number(exp) * 1000 <= this.clock.now().getTime()) throw new DomainError('token_expired', 'The access token has expired.');
    return { sub, sid, exp: Number(exp) };
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function setUp(maxEntries?: number) {
  const clock = new FakeClock();
  const inner = new CountingTokens(clock);
  const cache = new CachingTokenService(inner, { clock, ...(maxEntries === undefined ? {} : { maxEntries }) });
  return { clock, inner, cache };
}

describe('CachingTokenService', () => {
  it('checks a token once and answers its claims from memory afterwards', async () => {
    const { inner, cache } = setUp();
    const token = await cache.issue({ sub: 'cus_1', sid: 'ses_1' }, 900);
    const first = await cache.verify(token);
    const again = await cache.verify(token);
    expect(again).to.deep.equal(first);
    expect(first).to.deep.include({ sub: 'cus_1', sid: 'ses_1' });
    expect(inner.verifications).to.equal(1);
  });

  it('never answers from memory at or past exp: the inner service decides again', async () => {
    const { clock, inner, cache } = setUp();
    const token = await cache.issue({ sub: 'cus_1', sid: 'ses_1' }, 900);
    await cache.verify(token);
    clock.advance(899_999);
    await cache.verify(token);
    expect(inner.verifications).to.equal(1);
    clock.advance(1);
    const error = await rejection(cache.verify(token));
    expect((error as DomainError).code).to.equal('token_expired');
    expect(inner.verifications).to.equal(2);
    expect(cache.size).to.equal(0);
  });

  it('does not keep a token that the inner service accepts at or past its exp (clock tolerance)', async () => {
    const clock = new FakeClock();
    const lenient: TokenService = { issue: async () => 'x', verify: async () => ({ sub: 'cus_1', sid: 'ses_1', exp: clock.now().getTime() / 1000 }) };
    const cache = new CachingTokenService(lenient, { clock });
    await cache.verify('lenient');
    expect(cache.size).to.equal(0);
  });

  it('never remembers a refusal', async () => {
    const { inner, cache } = setUp();
    for (let i = 0; i < 3; i++) expect(((await rejection(cache.verify('bad-token'))) as DomainError).code).to.equal('invalid_token');
    expect(inner.verifications).to.equal(3);
    expect(cache.size).to.equal(0);
  });

  it('tells tokens apart by the whole string', async () => {
    const { inner, cache } = setUp();
    const token = await cache.issue({ sub: 'cus_1', sid: 'ses_1' }, 900);
    await cache.verify(token);
    await rejection(cache.verify(`x${token}`));
    expect(inner.verifications).to.equal(2);
  });

  it('keeps at most maxEntries tokens and forgets the least recently used first', async () => {
    const { inner, cache } = setUp(2);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sid) => cache.issue({ sub: 'cus_1', sid }, 900)));
    await cache.verify(a!);
    await cache.verify(b!);
    await cache.verify(a!); // a is now the most recent
    await cache.verify(c!); // evicts b
    expect(cache.size).to.equal(2);
    inner.verifications = 0;
    await cache.verify(a!);
    await cache.verify(c!);
    expect(inner.verifications).to.equal(0);
    await cache.verify(b!);
    expect(inner.verifications).to.equal(1);
  });

  it('hands out claims that a caller cannot change for the next one', async () => {
    const { cache } = setUp();
    const token = await cache.issue({ sub: 'cus_1', sid: 'ses_1' }, 900);
    await cache.verify(token);
    const claims = (await cache.verify(token)) as { sub: string };
    expect(() => {
      claims.sub = 'cus_2';
    }).to.throw(TypeError);
    expect((await cache.verify(token)).sub).to.equal('cus_1');
  });

  it('refuses a size that is not a positive integer', () => {
    const clock = new FakeClock();
    expect(() => new CachingTokenService(new CountingTokens(clock), { maxEntries: 0 })).to.throw(RangeError);
  });
});
