import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { KitchenOrder } from '../src/board.js';
import { money, totalText } from '../src/total.js';

function order(overrides: Partial<KitchenOrder>): KitchenOrder {
  return { order_id: 'ord_a', status: 'placed', version: 1, created_at: '2026-11-25T12:00:00.000Z', items: [], ...overrides };
}

describe('A card\'s total', () => {
  it('shows the amount the customer pays and the tax included in it', () => {
    const taxes = [{ rate: 700, taxable: 1780, tax: 116 }, { rate: 1900, taxable: 250, tax: 40 }];
    expect(totalText(order({ amount: 2230, currency: 'EUR', prices_include_tax: true, taxes, tax_total: 156 }))).to.equal('Total EUR 22.30 · tax 1.56 incl.');
  });

  it('shows the amount with the tax added on top, as the customer pays it', () => {
    const taxes = [{ rate: 800, taxable: 2000, tax: 160 }];
    expect(totalText(order({ amount: 2160, currency: 'USD', prices_include_tax: false, taxes, tax_total: 160 }))).to.equal('Total USD 21.60 · tax 1.60 added');
  });

  it('says nothing about tax for an order placed before taxes, and nothing at all without an amount', () => {
    expect(totalText(order({ amount: 1780, currency: 'USD', prices_include_tax: false, taxes: [], tax_total: 0 }))).to.equal('Total USD 17.80');
    expect(totalText(order({}))).to.equal(null);
  });

  it('places the decimal point by the currency\'s digits, with integers only', () => {
    expect(money(5, 'USD')).to.equal('0.05');
    expect(money(123456789, 'EUR')).to.equal('1234567.89');
    expect(money(500, 'JPY')).to.equal('500');
    expect(money(1234, 'KWD')).to.equal('1.234');
  });
});
