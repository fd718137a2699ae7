/**
 * Properties of pricing with options (DECISIONS "Menu options"), over generated menus: a choice
 * that fits is never refused and is priced as price + deltas; the amount is the sum of the line
 * totals; options are a set (order changes nothing); a choice that does not fit is always refused
 * with `invalid_options` naming exactly the group at fault.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import fc from 'fast-check';
import { isDomainError } from '../src/shared/errors.js';
import { fingerprintOf, parseLines, priceOrder } from '../src/orders/order-pricing.js';
import { groupId, groupsNamed, optionId, scenario, type Scenario } from './option-arbitraries.js';
import { refusal } from './refusals.js';

const RUNS = { numRuns: 300 };

/** The price of line `p` computed from the plan, independently of the code under test. */
function expectedUnitPrice(s: Scenario, p: number): number {
  const plan = s.plans[p]!;
  return plan.groups.reduce((sum, group) => sum + group.chosen.reduce((groupSum, o) => groupSum + group.deltas[o]!, 0), plan.price);
}

describe('Pricing with options (properties)', () => {
  it('never refuses a choice that fits, and prices each line as (price + the chosen deltas) × quantity', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { items, amount } = priceOrder(parseLines(s.lines), s.byId);
        items.forEach((line, p) => {
          const unitPrice = expectedUnitPrice(s, p);
          expect(line.unitPrice).to.equal(unitPrice);
          expect(line.lineTotal).to.equal(unitPrice * s.plans[p]!.quantity);
          // As priced, in the menu's order of groups and options, whatever order they were sent in.
          const menuOrder = s.plans[p]!.groups.flatMap((group, g) => [...group.chosen].sort((a, b) => a - b).map((o) => optionId(p, g, o)));
          expect(line.options.map((o) => o.optionId)).to.deep.equal(menuOrder);
          line.options.forEach((o) => expect(o.priceDelta).to.equal(s.byId.get(`prd_${p}`)!.optionGroups.flatMap((g) => g.options).find((x) => x.optionId === o.optionId)!.priceDelta));
        });
        expect(amount).to.equal(items.reduce((sum, line) => sum + line.lineTotal, 0));
        expect(amount).to.equal(s.plans.reduce((sum, plan, p) => sum + expectedUnitPrice(s, p) * plan.quantity, 0));
        expect(Number.isSafeInteger(amount)).to.equal(true);
      }),
      RUNS,
    );
  });

  it('treats the options of a line as a set: any order gives the same lines and the same fingerprint', () => {
    const reordered = scenario.chain((s) =>
      fc.tuple(...s.lines.map((line) => fc.shuffledSubarray([...line.options], { minLength: line.options.length, maxLength: line.options.length }))).map((orders) => ({
        s,
        again: s.lines.map((line, i) => ({ ...line, options: orders[i]! })),
      })),
    );
    fc.assert(
      fc.property(reordered, ({ s, again }) => {
        const first = parseLines(s.lines);
        const second = parseLines(again);
        expect(JSON.stringify(second.map(fingerprintOf))).to.equal(JSON.stringify(first.map(fingerprintOf)));
        expect(priceOrder(second, s.byId)).to.deep.equal(priceOrder(first, s.byId));
      }),
      RUNS,
    );
  });

  it('refuses a choice that does not fit with invalid_options, naming exactly the group at fault', () => {
    const kinds = ['below min', 'above max', 'unavailable', 'of another product'] as const;
    const broken = fc.record({ s: scenario, line: fc.nat(), group: fc.nat(), kind: fc.constantFrom(...kinds), pick: fc.nat() });
    fc.assert(
      fc.property(broken, ({ s, line: l, group: gi, kind, pick }) => {
        const p = l % s.lines.length;
        const plan = s.plans[p]!;
        const groups = plan.groups.map((group, g) => ({ ...group, g, n: group.deltas.length }));
        const candidates = groups.filter((group) =>
          kind === 'below min' ? group.min > 0 : kind === 'above max' ? group.max < group.n : kind === 'unavailable' ? group.available.includes(false) : true,
        );
        const others = s.products.filter((_, i) => i !== p).flatMap((product) => product.optionGroups.flatMap((group) => group.options.map((o) => o.optionId)));
        fc.pre(kind === 'of another product' || candidates.length > 0);
        const target = candidates[gi % Math.max(candidates.length, 1)];
        let options = [...s.lines[p]!.options];
        let named: string[];
        if (kind === 'of another product') {
          const stranger = others.length > 0 ? others[pick % others.length]! : 'opt_nowhere';
          options.splice(pick % (options.length + 1), 0, stranger);
          named = [stranger];
        } else {
          const id = (o: number) => optionId(p, target!.g, o);
          if (kind === 'below min') {
            const keep = new Set(target!.chosen.slice(0, target!.min - 1).map(id));
            options = options.filter((o) => !o.startsWith(`opt_${p}_${target!.g}_`) || keep.has(o));
          } else if (kind === 'above max') {
            const unchosen = [...Array(target!.n).keys()].filter((o) => !target!.chosen.includes(o));
            options.push(...unchosen.slice(0, target!.max + 1 - target!.chosen.length).map(id));
          } else {
            const off = [...Array(target!.n).keys()].filter((o) => !target!.available[o]!);
            options.push(id(off[pick % off.length]!));
          }
          named = [groupId(p, target!.g)];
        }
        const lines = s.lines.map((line, i) => (i === p ? { ...line, options } : line));
        const error = refusal(() => priceOrder(parseLines(lines), s.byId));
        expect(isDomainError(error, 'invalid_options'), error.message).to.equal(true);
        const details = error.details ?? [];
        expect(details.map((d) => d.path)).to.deep.equal(details.map(() => `items.${p}.options`));
        if (kind === 'of another product') {
          expect(details).to.have.length(1);
          expect(details[0]!.message).to.include(named[0]!);
          expect(groupsNamed(details[0]!.message)).to.deep.equal([]);
        } else {
          expect(details.flatMap((d) => groupsNamed(d.message))).to.deep.equal(named);
          expect(details[0]!.message).to.include(`"Group ${p}.${target!.g}"`);
        }
      }),
      RUNS,
    );
  });
});
