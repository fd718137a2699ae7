import { describe, it } from 'mocha';
import { expect } from 'chai';
import { parseMenuDocument } from '../src/menu/menu-document.js';
import { issuesOf } from './refusals.js';

const soup = { name: 'Soup', category: 'Starters', price: 450 };

describe('parseMenuDocument', () => {
  it('fills in the defaults and trims text', () => {
    expect(parseMenuDocument({ products: [{ ...soup, name: '  Soup ', tags: [' hot '] }] })).to.deep.equal([
      { name: 'Soup', description: '', category: 'Starters', price: 450, currency: 'USD', tags: ['hot'], available: true, optionGroups: [] },
    ]);
  });

  it('accepts an empty menu', () => {
    expect(parseMenuDocument({ products: [] })).to.deep.equal([]);
  });

  it('refuses a document that is not an object with a products list', () => {
    expect(issuesOf(null)).to.deep.equal(['products']);
    expect(issuesOf([])).to.deep.equal(['products']);
    expect(issuesOf({ products: {} })).to.deep.equal(['products']);
  });

  it('names the path of every bad field at once', () => {
    const bad = { name: '', category: 'Starters', price: 4.5, currency: 'usd', tags: 'hot', available: 'yes', colour: 'red' };
    expect(issuesOf({ products: [soup, bad] })).to.have.members([
      'products.1.colour', 'products.1.name', 'products.1.price', 'products.1.currency', 'products.1.tags', 'products.1.available',
    ]);
  });

  it('refuses a negative price and a product that is not an object', () => {
    expect(issuesOf({ products: [{ ...soup, price: -1 }, 'soup'] })).to.deep.equal(['products.0.price', 'products.1']);
  });

  it('refuses the same name twice, whatever the case', () => {
    expect(issuesOf({ products: [soup, { ...soup, name: 'SOUP' }] })).to.deep.equal(['products.1.name']);
  });

  it('refuses a menu with more than one currency', () => {
    expect(issuesOf({ products: [soup, { ...soup, name: 'Bread', currency: 'EUR' }] })).to.deep.equal(['products']);
  });

  it('refuses more than 20 tags', () => {
    expect(issuesOf({ products: [{ ...soup, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }] })).to.deep.equal(['products.0.tags']);
  });
});
