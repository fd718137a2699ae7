import { describe, it } from 'mocha';
import { expect } from 'chai';
import { isDomainError } from '../src/shared/errors.js';
import { pageOffset, PAGING, toPage } from '../src/shared/page.js';
import { Issues } from '../src/shared/validation.js';
import { resolvePage } from '../src/shared/paging.js';

describe('toPage', () => {
  it('points to the next page while rows remain', () => {
    expect(toPage(['a', 'b'], 5, { page: 1, limit: 2 })).to.deep.equal({ items: ['a', 'b'], total: 5, page: 1, perPage: 2, nextPage: 2 });
  });

  it('has no next page on the last page, even a full one', () => {
    expect(toPage(['e'], 5, { page: 3, limit: 2 }).nextPage).to.equal(null);
    expect(toPage(['c', 'd'], 4, { page: 2, limit: 2 }).nextPage).to.equal(null);
  });

  it('answers a page past the end with no items, the total and no next page', () => {
    expect(toPage([], 5, { page: 9, limit: 2 })).to.deep.equal({ items: [], total: 5, page: 9, perPage: 2, nextPage: null });
  });

  it('starts page N after (N - 1) full pages', () => {
    expect(pageOffset({ page: 1, limit: 20 })).to.equal(0);
    expect(pageOffset({ page: 5_000, limit: 20 })).to.equal(99_980);
  });
});

describe('resolvePage', () => {
  const resolve = (input: { page?: number; limit?: number }) => {
    const issues = new Issues();
    const page = resolvePage(input, issues);
    return { page, issues: issues.list.map((i) => i.path) };
  };

  it('defaults to page 1 of 20', () => {
    expect(resolve({})).to.deep.equal({ page: { page: 1, limit: PAGING.defaultLimit }, issues: [] });
  });

  it('serves a limit above 100 as 100', () => {
    expect(resolve({ page: 2, limit: 1_000 }).page).to.deep.equal({ page: 2, limit: 100 });
  });

  it('records an issue for a page or limit that is not a positive integer', () => {
    expect(resolve({ page: 0 }).issues).to.deep.equal(['page']);
    expect(resolve({ page: 1.5 }).issues).to.deep.equal(['page']);
    expect(resolve({ page: 2_000_000_000 }).issues).to.deep.equal(['page']);
    expect(resolve({ limit: 0 }).issues).to.deep.equal(['limit']);
    expect(resolve({ limit: -3, page: -1 }).issues).to.deep.equal(['page', 'limit']);
  });

  it('throws validation_failed from the issues it recorded', () => {
    const issues = new Issues();
    resolvePage({ limit: 0 }, issues);
    let thrown: unknown;
    try {
      issues.throwIfAny();
    } catch (error) {
      thrown = error;
    }
    expect(isDomainError(thrown, 'validation_failed')).to.equal(true);
  });
});
