import { describe, it } from 'mocha';
import { expect } from 'chai';
import { amountToPay, orderTaxes, roundHalfUp, taxAt } from '../src/taxes/order-taxes.js';
import { isTaxRate, taxRateOf, type TaxRate } from '../src/taxes/tax-rate.js';

const rate = (bp: number): TaxRate => taxRateOf(bp);
const at = (bp: number, amount: number) => ({ rate: rate(bp), amount });

describe('Tax rates', () => {
  it('are whole basis points from 0 to 10000', () => {
    for (const ok of [0, 1, 700, 1900, 10_000]) expect(isTaxRate(ok), String(ok)).to.equal(true);
    for (const bad of [-1, 10_001, 7.5, '700', null, Number.NaN]) expect(isTaxRate(bad), String(bad)).to.equal(false);
    expect(() => taxRateOf(0.07)).to.throw(RangeError, /basis points from 0 to 10000/);
  });
});

describe('roundHalfUp', () => {
  it('rounds a tie up and everything else to the nearest', () => {
    expect(roundHalfUp(35n, 10n)).to.equal(4n);
    expect(roundHalfUp(34n, 10n)).to.equal(3n);
    expect(roundHalfUp(36n, 10n)).to.equal(4n);
    expect(roundHalfUp(0n, 7n)).to.equal(0n);
  });
});

describe('Tax added on top', () => {
  it('rounds a tie up at each rate', () => {
    expect(taxAt(50, rate(700), false), '7 % of 0.50 is 0.035').to.equal(4);
    expect(taxAt(50, rate(1900), false), '19 % of 0.50 is 0.095').to.equal(10);
    expect(taxAt(8, rate(625), false), '6.25 % of 0.08 is 0.005').to.equal(1);
  });

  it('rounds below a tie down', () => {
    expect(taxAt(49, rate(700), false)).to.equal(3);
    expect(taxAt(1000, rate(1900), false)).to.equal(190);
    expect(taxAt(1234, rate(0), false)).to.equal(0);
  });
});

describe('Tax included in the price', () => {
  it('is the price less its net, the net rounded half up', () => {
    expect(taxAt(107, rate(700), true), '1.07 at 7 % is 1.00 + 0.07').to.equal(7);
    expect(taxAt(1000, rate(700), true), 'net 934.58 → 935').to.equal(65);
    expect(taxAt(1190, rate(1900), true)).to.equal(190);
    expect(taxAt(1000, rate(1900), true), 'net 840.34 → 840').to.equal(160);
  });

  it('rounds a tie of the net up (so the tax down)', () => {
    expect(taxAt(3, rate(2000), true), 'net 2.5 → 3').to.equal(0);
    expect(taxAt(9, rate(2000), true), 'net 7.5 → 8').to.equal(1);
    expect(taxAt(3, rate(10_000), true), 'net 1.5 → 2').to.equal(1);
  });
});

describe('orderTaxes', () => {
  it('taxes per rate over the order, not per line', () => {
    // Per line each 0.50 at 7 % would round to 0.04, 0.08 in all; over the order it is 0.07.
    expect(orderTaxes([at(700, 50), at(700, 50)], false)).to.deep.equal({ taxes: [{ rate: 700, taxable: 100, tax: 7 }], taxTotal: 7 });
  });

  it('taxes a delivery fee at its own rate beside the items, ascending by rate', () => {
    const items = [at(1900, 450), at(700, 1550), at(700, 450)];
    const fee = at(1900, 300);
    expect(orderTaxes([...items, fee], false)).to.deep.equal({
      taxes: [
        { rate: 700, taxable: 2000, tax: 140 },
        { rate: 1900, taxable: 750, tax: 143 },
      ],
      taxTotal: 283,
    });
    expect(orderTaxes([...items, fee], true)).to.deep.equal({
      taxes: [
        { rate: 700, taxable: 2000, tax: 131 },
        { rate: 1900, taxable: 750, tax: 120 },
      ],
      taxTotal: 251,
    });
  });

  it('lists a rate of 0 with a taxable amount, and no rate without one', () => {
    expect(orderTaxes([at(0, 500), at(1900, 0)], false)).to.deep.equal({ taxes: [{ rate: 0, taxable: 500, tax: 0 }], taxTotal: 0 });
    expect(orderTaxes([], true)).to.deep.equal({ taxes: [], taxTotal: 0 });
  });

  it('stays exact for the largest amount an order can hold', () => {
    const taxable = 50 * 99 * 100_000_000; // 50 lines of 99 at the money bound
    expect(orderTaxes([at(10_000, taxable)], false).taxTotal).to.equal(taxable);
    expect(orderTaxes([at(1900, taxable)], false).taxTotal).to.equal(94_050_000_000);
  });
});

describe('amountToPay', () => {
  const parts = { subtotal: 2450, deliveryFee: 300, tip: 200, taxTotal: 283 };

  it('adds the tax when prices exclude it, and never taxes the tip', () => {
    expect(amountToPay({ ...parts, pricesIncludeTax: false })).to.equal(2450 + 300 + 200 + 283);
  });

  it('adds nothing when prices include the tax', () => {
    expect(amountToPay({ ...parts, pricesIncludeTax: true })).to.equal(2450 + 300 + 200);
  });
});
