import { describe, it } from 'mocha';
import { expect } from 'chai';
import { ByteBudgetCache } from '../src/search/byte-budget-cache.js';

const kept = (cache: ByteBudgetCache, keys: number): number[] => Array.from({ length: keys }, (_, k) => k).filter((k) => cache.get(`${k}`) !== undefined);

describe('ByteBudgetCache', () => {
  it('keeps what fits in its budget, dropping the oldest first', () => {
    const cache = new ByteBudgetCache(100);
    for (let k = 0; k < 14; k++) cache.set(`${k}`, k, 10);
    expect(kept(cache, 14)).to.deep.equal([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('keeps an entry read lately over one left unread', () => {
    const cache = new ByteBudgetCache(100);
    for (let k = 0; k < 10; k++) cache.set(`${k}`, k, 10);
    expect(cache.get('0')).to.equal(0);
    expect(cache.get('1')).to.equal(1);
    for (let k = 10; k < 13; k++) cache.set(`${k}`, k, 10);
    expect(kept(cache, 13)).to.deep.equal([0, 1, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('moves an entry read to the end only once half the entries were put after it (fewer Map rehashes)', () => {
    const cache = new ByteBudgetCache(100);
    for (let k = 0; k < 10; k++) cache.set(`${k}`, k, 10);
    // One entry was put after "8": it stays where it is (strict LRU would move it after "9").
    // Five were put after "4": it goes to the end.
    cache.get('8');
    cache.get('4');
    for (let k = 10; k < 18; k++) cache.set(`${k}`, k, 10);
    expect(kept(cache, 18)).to.deep.equal([4, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
  });

  it('refuses a value over a quarter of its budget, and keeps the first value of a key', () => {
    const cache = new ByteBudgetCache(100);
    cache.set('big', 'x', 26);
    cache.set('a', 1, 25);
    cache.set('a', 2, 25);
    expect([cache.get('big'), cache.get('a')]).to.deep.equal([undefined, 1]);
  });
});
