import { describe, it } from 'mocha';
import { expect } from 'chai';
import { cachedOffsetAt, offsetAt } from '../src/zoned-time.js';

describe('cachedOffsetAt', () => {
  it('answers as offsetAt to the millisecond around clock changes, asked twice', () => {
    // Berlin's spring-forward and fall-back of 2026, and its switch from local mean time in 1893
    // (+0:53:28, not on a whole minute), each probed in the minute around it.
    const changes = [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), Date.UTC(1893, 2, 31, 23, 6, 32)];
    for (const change of changes) {
      for (let delta = -61_000; delta <= 61_000; delta += 500) {
        for (const probe of [change + delta, change + delta - 1]) {
          for (let twice = 0; twice < 2; twice++) expect(cachedOffsetAt(probe, 'Europe/Berlin'), new Date(probe).toISOString()).to.equal(offsetAt(probe, 'Europe/Berlin'));
        }
      }
    }
  });
});
