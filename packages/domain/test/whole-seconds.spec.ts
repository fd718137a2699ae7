import { describe, it } from 'mocha';
import { expect } from 'chai';
import { toWholeSeconds } from '../src/rate-limits/rate-limits.js';

describe('toWholeSeconds', () => {
  it('rounds up so that a client never retries too early', () => {
    expect([0, 1, 999, 1_000, 1_001, 60_500].map(toWholeSeconds)).to.deep.equal([0, 1, 1, 1, 2, 61]);
  });
});
