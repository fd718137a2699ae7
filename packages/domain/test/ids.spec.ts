import { describe, it } from 'mocha';
import { expect } from 'chai';
import { newId, OrderStamper, randomToken, sha256Hex } from '../src/shared/ids.js';

describe('OrderStamper', () => {
  const t = Date.UTC(2025, 0, 15, 12, 0, 0);

  it('stamps orders with ids that sort like their creation', () => {
    const stamper = new OrderStamper();
    const stamps = [t, t + 1, t + 1, t + 1, t + 50].map((ms) => stamper.next(new Date(ms)));
    const ids = stamps.map((s) => s.orderId);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(5);
    expect(stamps.map((s) => s.createdAt.getTime())).to.deep.equal([t, t + 1, t + 1, t + 1, t + 50]);
    for (const id of ids) expect(id).to.match(/^ord_[0-9a-z]{26}$/);
  });

  it('never goes backwards when the clock steps back', () => {
    const stamper = new OrderStamper();
    const stamps = [t + 1_000, t, t + 500, t + 2_000].map((ms) => stamper.next(new Date(ms)));
    expect(stamps.map((s) => s.createdAt.getTime())).to.deep.equal([t + 1_000, t + 1_000, t + 1_000, t + 2_000]);
    const ids = stamps.map((s) => s.orderId);
    expect([...ids].sort()).to.deep.equal(ids);
  });

  it('keeps ids in order past 1,048,576 orders in one millisecond', () => {
    const stamper = new OrderStamper();
    const first = stamper.next(new Date(t));
    // Jump the per-millisecond counter to the end of its four base-32 digits instead of looping.
    (stamper as unknown as { sequence: number }).sequence = 32 ** 4 - 2;
    const stamps = [first, stamper.next(new Date(t)), stamper.next(new Date(t)), stamper.next(new Date(t))];
    const ids = stamps.map((s) => s.orderId);
    expect([...ids].sort()).to.deep.equal(ids);
    for (const id of ids) expect(id).to.have.length(30);
    const times = stamps.map((s) => s.createdAt.getTime());
    expect([...times].sort((a, b) => a - b)).to.deep.equal(times);
  });
});

describe('newId', () => {
  it('gives a type prefix and 20 random base-32 characters', () => {
    const ids = Array.from({ length: 100 }, () => newId('cus'));
    for (const id of ids) expect(id).to.match(/^cus_[0-9a-hjkmnp-tv-z]{20}$/);
    expect(new Set(ids).size).to.equal(100);
  });
});

describe('randomToken', () => {
  it('hands out fresh random characters across refills of its byte pool', () => {
    // 3,000 × 43 characters draw ~31 refills of the 4 KiB pool.
    const tokens = Array.from({ length: 3_000 }, () => randomToken(43));
    expect(new Set(tokens).size).to.equal(tokens.length);
    const counts = new Map<string, number>();
    for (const token of tokens) {
      expect(token).to.match(/^[0-9a-hjkmnp-tv-z]{43}$/);
      for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 129,000 characters over 32 symbols: about 4,031 each; a repeated or stuck pool would skew this.
    expect(counts.size).to.equal(32);
    for (const [c, n] of counts) expect(n, c).to.be.within(3_600, 4_450);
  });

  it('serves lengths larger than its pool', () => {
    expect(randomToken(5_000)).to.match(/^[0-9a-hjkmnp-tv-z]{5000}$/);
  });
});

describe('sha256Hex', () => {
  it('hashes like SHA-256', async () => {
    expect(await sha256Hex('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
