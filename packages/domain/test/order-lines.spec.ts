import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError, isDomainError } from '../src/shared/errors.js';
import type { OrderRequestLine } from '../src/orders/order.js';
import type { Product } from '../src/menu/product.js';
import { fingerprintOf, parseLines, priceOrder } from '../src/orders/order-pricing.js';
import { refusal } from './refusals.js';

const line = (options?: unknown): OrderRequestLine => ({ productId: 'prd_1', quantity: 2, ...(options === undefined ? {} : { options }) }) as OrderRequestLine;

const pizza: Product = {
  productId: 'prd_1', name: 'Margherita', description: '', category: 'Pizza', price: 1290, currency: 'USD', tags: [], available: true,
  optionGroups: [
    { groupId: 'grp_size', name: 'Size', min: 1, max: 1, options: [
      { optionId: 'opt_regular', name: 'Regular', priceDelta: 0, available: true },
      { optionId: 'opt_large', name: 'Large', priceDelta: 400, available: true },
    ] },
    { groupId: 'grp_toppings', name: 'Extra toppings', min: 0, max: 2, options: [
      { optionId: 'opt_cheese', name: 'Extra cheese', priceDelta: 150, available: true },
      { optionId: 'opt_olives', name: 'Olives', priceDelta: 150, available: false },
      { optionId: 'opt_basil', name: 'Basil', priceDelta: 0, available: true },
    ] },
  ],
};
const soup: Product = { ...pizza, productId: 'prd_2', name: 'Soup', price: 450, optionGroups: [] };
const menu = new Map([pizza, soup].map((p) => [p.productId, p]));

describe('Order lines with options', () => {
  describe('parseLines', () => {
    it('accepts a line without options, with an empty list, and with option ids', () => {
      expect(parseLines([line(), line([]), line(['opt_large', 'opt_cheese'])]).map((l) => l.options)).to.deep.equal([[], [], ['opt_large', 'opt_cheese']]);
    });

    it('refuses options that are not a list of id strings, and more than 1,000 of them', () => {
      for (const options of ['opt_large', [1], [''], ['x'.repeat(65)], [null], Array.from({ length: 1001 }, (_, i) => `opt_${i}`)]) {
        const error = refusal(() => parseLines([line(options)]));
        expect(isDomainError(error, 'validation_failed')).to.equal(true);
        expect(error.details!.map((d) => d.path)).to.deep.equal(['items.0.options']);
      }
    });

    it('refuses an option id twice on one line as a malformed request (validation_failed), never priced twice', () => {
      const error = refusal(() => parseLines([line(['opt_large']), line(['opt_cheese', 'opt_large', 'opt_cheese'])]));
      expect(isDomainError(error, 'validation_failed')).to.equal(true);
      expect(error.details).to.deep.equal([{ path: 'items.1.options', message: 'names opt_cheese more than once: each option at most once' }]);
    });
  });

  describe('fingerprintOf', () => {
    it('hashes a line without options exactly as before options existed, so older Idempotency-Keys still match', () => {
      const [absent, empty] = parseLines([line(), line([])]);
      expect(JSON.stringify([absent, empty].map((l) => fingerprintOf(l!)))).to.equal(JSON.stringify([['prd_1', 2], ['prd_1', 2]]));
    });

    it('hashes the options as a set', () => {
      const [a, b] = parseLines([line(['opt_large', 'opt_cheese']), line(['opt_cheese', 'opt_large'])]);
      expect(fingerprintOf(a!)).to.deep.equal(fingerprintOf(b!)).and.deep.equal(['prd_1', 2, ['opt_cheese', 'opt_large']]);
    });
  });

  describe('priceOrder', () => {
    it('prices price + deltas per unit, snapshots the options in menu order, and sums the lines', () => {
      const priced = priceOrder(parseLines([line(['opt_cheese', 'opt_large', 'opt_basil']), { productId: 'prd_2', quantity: 1 }]), menu);
      expect(priced.items[0]).to.deep.equal({
        productId: 'prd_1', name: 'Margherita', quantity: 2, unitPrice: 1290 + 400 + 150, lineTotal: 2 * 1840,
        options: [
          { optionId: 'opt_large', name: 'Large', priceDelta: 400 },
          { optionId: 'opt_cheese', name: 'Extra cheese', priceDelta: 150 },
          { optionId: 'opt_basil', name: 'Basil', priceDelta: 0 },
        ],
        taxRate: 0,
      });
      expect(priced.items[1]!.options).to.deep.equal([]);
      expect(priced.amount).to.equal(2 * 1840 + 450);
    });

    it('names the group in every refusal: a required group left empty, too many, an unavailable option', () => {
      const error = refusal(() => priceOrder(parseLines([line(['opt_cheese', 'opt_olives', 'opt_basil'])]), menu));
      expect(isDomainError(error, 'invalid_options')).to.equal(true);
      expect(error.details).to.deep.equal([
        { path: 'items.0.options', message: '"Size" (grp_size): choose exactly 1 option, 0 chosen' },
        { path: 'items.0.options', message: '"Extra toppings" (grp_toppings): choose at most 2 options, 3 chosen; Olives (opt_olives) is not available right now' },
      ]);
    });

    it('names an option of another product or an unknown one, and checks every line', () => {
      const error = refusal(() => priceOrder(parseLines([line(['opt_regular']), { productId: 'prd_2', quantity: 1, options: ['opt_large', 'opt_nope'] }]), menu));
      expect(error.details).to.deep.equal([
        { path: 'items.1.options', message: 'opt_large is not an option of "Soup"' },
        { path: 'items.1.options', message: 'opt_nope is not an option of "Soup"' },
      ]);
    });

    it('reports unknown and unavailable products before options', () => {
      expect(refusal(() => priceOrder(parseLines([line([]), { productId: 'prd_x', quantity: 1 }]), menu)).code).to.equal('unknown_product');
      const offMenu = new Map([...menu].map(([id, p]) => [id, id === 'prd_2' ? { ...p, available: false } : p]));
      expect(refusal(() => priceOrder(parseLines([line([]), { productId: 'prd_2', quantity: 1 }]), offMenu)).code).to.equal('product_unavailable');
    });
  });
});
