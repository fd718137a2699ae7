import { describe, it } from 'mocha';
import { expect } from 'chai';
import { topK } from '../src/search/top-k.js';

const ascending = (a: number, b: number): number => a - b;

describe('topK', () => {
  const items = Array.from({ length: 200 }, (_, i) => (i * 7_919) % 1_009);

  it('returns the k best items in compare order, as a full sort would', () => {
    const sorted = [...items].sort(ascending);
    for (const k of [1, 2, 5, 17, 100, 199]) expect(topK(items, k, ascending), `k = ${k}`).to.deep.equal(sorted.slice(0, k));
  });

  it('returns everything sorted when k is at least the number of items', () => {
    expect(topK([3, 1, 2], 3, ascending)).to.deep.equal([1, 2, 3]);
    expect(topK([3, 1, 2], 10, ascending)).to.deep.equal([1, 2, 3]);
  });

  it('returns nothing for k of 0 or less, or no items', () => {
    expect(topK(items, 0, ascending)).to.deep.equal([]);
    expect(topK(items, -1, ascending)).to.deep.equal([]);
    expect(topK([], 5, ascending)).to.deep.equal([]);
  });

  it('leaves its input untouched', () => {
    const input = [5, 4, 3, 2, 1];
    topK(input, 2, ascending);
    topK(input, 10, ascending);
    expect(input).to.deep.equal([5, 4, 3, 2, 1]);
  });
});
