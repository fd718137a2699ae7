import { describe, it } from 'mocha';
import { expect } from 'chai';
import { withFields } from '../src/shared/objects.js';

describe('withFields', () => {
  it('copies the base with the given fields added or replaced, and leaves the base as it was', () => {
    const base = Object.freeze({ orderId: 'ord_1', status: 'placed', version: 1 });
    const moved = withFields(base, { status: 'accepted', version: 2, reason: undefined });
    expect(moved).to.deep.equal({ orderId: 'ord_1', status: 'accepted', version: 2, reason: undefined });
    expect(Object.keys(moved)).to.deep.equal(['orderId', 'status', 'version', 'reason']);
    expect(base).to.deep.equal({ orderId: 'ord_1', status: 'placed', version: 1 });
    expect(Object.isFrozen(moved)).to.equal(false);
  });

  it('gives what the spread it stands for gives', () => {
    const base = { a: 1, b: { deep: true }, c: [1, 2] };
    const fields = { b: { deep: false }, d: 'new' };
    const made = withFields(base, fields);
    expect(made).to.deep.equal({ ...base, ...fields });
    // Shallow, as a spread: nested values are the same objects.
    expect(made.c).to.equal(base.c);
    expect(made.b).to.equal(fields.b);
  });
});
