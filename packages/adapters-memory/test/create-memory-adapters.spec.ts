import { describe, it } from 'mocha';
import { expect } from 'chai';
import { FakeClock } from '@storefront/testing';
import { createMemoryAdapters } from '../src/index.js';

describe('createMemoryAdapters', () => {
  it('reports healthy store and rate_limiter probes', async () => {
    const { probes } = createMemoryAdapters();
    expect(probes.map((p) => p.name)).to.deep.equal(['store', 'rate_limiter']);
    await Promise.all(probes.map((p) => p.check()));
  });

  it('drives the limiter with the given clock', async () => {
    const clock = new FakeClock();
    const { limiter } = createMemoryAdapters({ clock });
    const policy = { name: 'default', limit: 1, windowSeconds: 60 };
    await limiter.consume('k', policy);
    const refused = await limiter.consume('k', policy);
    expect(refused.allowed).to.equal(false);
    clock.advance(refused.retryAfterMs);
    expect((await limiter.consume('k', policy)).allowed).to.equal(true);
  });

  it('gives every call its own stores', async () => {
    const a = createMemoryAdapters();
    const b = createMemoryAdapters();
    await a.menu.upsertByName([{ name: 'Soup', description: '', category: 'Starters', price: 500, currency: 'USD', tags: [], available: true, optionGroups: [] }]);
    expect(await b.menu.list()).to.deep.equal([]);
  });
});
