import { describe, it } from 'mocha';
import { expect } from 'chai';
import { TopKeys } from '../src/search/top-keys.js';

describe('TopKeys', () => {
  const keys = Array.from({ length: 200 }, (_, i) => (i * 7_919) % 1_009);

  it('keeps the k largest keys offered, largest first, as a full sort would', () => {
    const sorted = [...keys].sort((a, b) => b - a);
    for (const k of [1, 2, 5, 17, 100, 199, 200, 500]) {
      const top = new TopKeys(k);
      for (const key of keys) top.offer(key);
      expect([...top.sortedDescending()], `k = ${k}`).to.deep.equal(sorted.slice(0, k));
    }
  });

  it('returns the floor a later offer must beat once k keys are kept', () => {
    const top = new TopKeys(2);
    expect(top.offer(5)).to.equal(-Infinity);
    expect(top.offer(9)).to.equal(5);
    expect(top.offer(7)).to.equal(7);
    expect(top.offer(1)).to.equal(7);
    expect([...top.sortedDescending()]).to.deep.equal([9, 7]);
  });

  it('keeps nothing for k of 0', () => {
    const top = new TopKeys(0);
    expect(top.offer(3)).to.equal(Infinity);
    expect([...top.sortedDescending()]).to.deep.equal([]);
  });
});
