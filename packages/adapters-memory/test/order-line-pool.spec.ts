import { describe, it } from 'mocha';
import { expect } from 'chai';
import { anOrderLine } from '@storefront/testing';
import { OrderLinePool } from '../src/order-line-pool.js';

describe('OrderLinePool', () => {
  it('shares one frozen copy of equal lines and of their one-line item lists', () => {
    const pool = new OrderLinePool();
    const line = anOrderLine();
    const a = pool.items([line]);
    const b = pool.items([{ ...line }]);
    expect(b).to.equal(a);
    expect(a).to.deep.equal([line]);
    expect(Object.isFrozen(a) && Object.isFrozen(a[0])).to.equal(true);
    expect(pool.items([line, anOrderLine()])[0]).to.equal(a[0]);
  });

  it('keeps lines that differ in any field apart', () => {
    const pool = new OrderLinePool();
    const line = anOrderLine();
    const other = pool.items([{ ...line, unitPrice: line.unitPrice + 1 }]);
    expect(other).to.not.equal(pool.items([line]));
    expect(other[0]!.unitPrice).to.equal(line.unitPrice + 1);
  });

  it('keeps lines that differ only in their options apart, and shares equal ones with their options frozen', () => {
    const pool = new OrderLinePool();
    const plain = anOrderLine();
    const large = { ...plain, options: [{ optionId: 'opt_large', name: 'Large', priceDelta: 400 }] };
    const [pooled] = pool.items([large]);
    expect(pooled).to.deep.equal(large);
    expect(pooled).to.not.equal(pool.items([plain])[0]);
    expect(pool.items([{ ...large, options: [{ ...large.options[0]! }] }])[0]).to.equal(pooled);
    expect(Object.isFrozen(pooled!.options) && Object.isFrozen(pooled!.options[0])).to.equal(true);
  });

  it('gives every line without options one shared empty list', () => {
    const pool = new OrderLinePool(0);
    const [a] = pool.items([anOrderLine()]);
    const [b] = pool.items([anOrderLine({ name: 'Other' })]);
    expect(a!.options).to.deep.equal([]);
    expect(a!.options).to.equal(b!.options);
  });

  it('stops sharing once full, and still stores lines faithfully', () => {
    const pool = new OrderLinePool(2);
    pool.items([anOrderLine()]);
    pool.items([anOrderLine()]);
    const line = anOrderLine();
    const first = pool.items([line]);
    expect(first).to.deep.equal([line]);
    expect(pool.items([line])).to.not.equal(first);
  });
});
