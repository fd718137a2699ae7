import { ORDER_MOVES } from '@storefront/domain';
import { OPEN_STATUSES as DOMAIN_OPEN, REASON_LIMITS } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { MOVES, OPEN_STATUSES, REASON_MAX_LENGTH } from '../src/lifecycle.js';

// The page runs in a browser and cannot load the domain package, so it keeps its own copy of the
// staff's moves; this keeps the copy equal to the domain's table.
describe("The kitchen page's buttons", () => {
  it("offer exactly the domain lifecycle's staff moves, with a reason where the domain needs one", () => {
    const page = OPEN_STATUSES.flatMap((from) => MOVES[from].map((move) => `${from}→${move.to}${move.needsReason ? ' (reason)' : ''}`));
    const domain = ORDER_MOVES.filter((move) => move.by === 'staff').map((move) => `${move.from}→${move.to}${move.needsReason ? ' (reason)' : ''}`);
    expect(page.sort()).to.deep.equal(domain.sort());
  });

  it('show the columns of the open statuses, in the order of the lifecycle, and take the longest reason the API takes', () => {
    expect([...OPEN_STATUSES]).to.deep.equal([...DOMAIN_OPEN]);
    expect(REASON_MAX_LENGTH).to.equal(REASON_LIMITS.maxLength);
  });
});
