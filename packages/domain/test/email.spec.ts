import { expect } from 'chai';
import { describe, it } from 'mocha';
import { emailOf } from '../src/accounts/email.js';

describe('Email', () => {
  it('answers at once for long strings that are not addresses (no backtracking blow-up)', () => {
    const started = Date.now();
    for (const text of ['a'.repeat(250), `${'a'.repeat(240)}@`, `a@${'b'.repeat(240)}`, `${'a1'.repeat(120)}!@x`, `a@${'b-'.repeat(120)}`]) {
      expect(emailOf(text), text.slice(0, 20)).to.equal(undefined);
    }
    // An exponential pattern takes minutes on the first of these; a linear one well under a millisecond.
    expect(Date.now() - started).to.be.below(1000);
  });

  it('normalises a plain address: trimmed and lower-cased', () => {
    expect(emailOf('  Alice@Example.COM ')).to.equal('alice@example.com');
  });
});
