/**
 * fast-check generators of menus with option groups and of order lines choosing from them. Each
 * line has a product of its own, and a choice that fits: between `min` and `max` available options
 * in every group. Ids follow the product, group and option positions (`prd_1`, `grp_1_0`,
 * `opt_1_0_2`), so a test can tell which group an id or a message names.
 */
import fc from 'fast-check';
import type { OptionGroup } from '../src/menu/option-group.js';
import type { Product } from '../src/menu/product.js';

/** How one group of a line's product is made, and which of its options the line chose. */
export interface GroupPlan {
  readonly min: number;
  readonly max: number;
  readonly available: readonly boolean[];
  readonly deltas: readonly number[];
  /** Option positions chosen, between min and max of them, all available. */
  readonly chosen: readonly number[];
}

export interface LinePlan {
  readonly price: number;
  readonly quantity: number;
  readonly groups: readonly GroupPlan[];
  /** The chosen option ids, in a random order. */
  readonly options: readonly string[];
}

export interface Scenario {
  readonly products: readonly Product[];
  readonly byId: ReadonlyMap<string, Product>;
  readonly lines: readonly { readonly productId: string; readonly quantity: number; readonly options: readonly string[] }[];
  readonly plans: readonly LinePlan[];
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

export const optionId = (p: number, g: number, o: number): string => `opt_${p}_${g}_${o}`;
export const groupId = (p: number, g: number): string => `grp_${p}_${g}`;

/** Mostly small deltas, sometimes as large as a menu allows (the sums must stay exact). */
const delta = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 2_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 100_000_000 }) });

const groupPlan: fc.Arbitrary<GroupPlan> = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n })).chain(([a, b]) => {
    const min = Math.min(a, b);
    const max = Math.max(a, b);
    return fc
      .record({
        chosen: fc.integer({ min, max }).chain((k) => fc.shuffledSubarray(range(n), { minLength: k, maxLength: k })),
        available: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
        deltas: fc.array(delta, { minLength: n, maxLength: n }),
      })
      .map(({ chosen, available, deltas }) => ({ min, max, chosen, deltas, available: available.map((free, o) => free || chosen.includes(o)) }));
  }),
);

const linePlan = (p: number): fc.Arbitrary<LinePlan> =>
  fc
    .record({
      price: fc.integer({ min: 0, max: 100_000 }),
      quantity: fc.integer({ min: 1, max: 99 }),
      groups: fc.array(groupPlan, { maxLength: 4 }),
    })
    .chain((plan) => {
      const ids = plan.groups.flatMap((group, g) => group.chosen.map((o) => optionId(p, g, o)));
      return fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }).map((options) => ({ ...plan, options }));
    });

function productOf(p: number, plan: LinePlan): Product {
  const optionGroups: OptionGroup[] = plan.groups.map((group, g) => ({
    groupId: groupId(p, g),
    name: `Group ${p}.${g}`,
    min: group.min,
    max: group.max,
    options: group.deltas.map((priceDelta, o) => ({ optionId: optionId(p, g, o), name: `Option ${p}.${g}.${o}`, priceDelta, available: group.available[o]! })),
  }));
  return { productId: `prd_${p}`, name: `Dish ${p}`, description: '', category: 'Mains', price: plan.price, currency: 'USD', tags: [], available: true, optionGroups };
}

/** 1 to 5 lines, each on a product of its own, each with a choice that fits. */
export const scenario: fc.Arbitrary<Scenario> = fc.integer({ min: 1, max: 5 }).chain((count) =>
  fc.tuple(...range(count).map(linePlan)).map((plans) => {
    const products = plans.map((plan, p) => productOf(p, plan));
    return {
      products,
      byId: new Map(products.map((product) => [product.productId, product])),
      lines: plans.map((plan, p) => ({ productId: `prd_${p}`, quantity: plan.quantity, options: plan.options })),
      plans,
    };
  }),
);

/** The group ids a message names. */
export function groupsNamed(message: string): string[] {
  return message.match(/grp_\d+_\d+/g) ?? [];
}
