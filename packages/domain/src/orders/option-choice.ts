/**
 * One order line's options checked against its product's groups (DECISIONS "Menu options"): every
 * id must be an available option of this product, and each group must get between `min` and `max`
 * of them. What fits is priced; what does not is one FieldIssue per group at fault (and one per id
 * that is not an option of the product), all at the line's `options` path.
 */
import type { FieldIssue } from '../shared/errors.js';
import type { OptionGroup } from '../menu/option-group.js';
import type { OrderLineOption } from './order.js';
import type { Product } from '../menu/product.js';

/** The chosen options as priced (in the menu's order of groups and options), or what is wrong with them. */
export interface OptionChoice {
  readonly options: readonly OrderLineOption[];
  /** The sum of the chosen options' price deltas. */
  readonly priceDelta: number;
  /** Empty when the choice fits. */
  readonly issues: readonly FieldIssue[];
}

const NO_OPTIONS: readonly OrderLineOption[] = Object.freeze([]);
const NOTHING_CHOSEN: OptionChoice = Object.freeze({ options: NO_OPTIONS, priceDelta: 0, issues: Object.freeze([]) });

/** `optionIds` has no duplicates (parseLines refuses them). `path` is the line's, e.g. `items.0.options`. */
export function chooseOptions(product: Product, optionIds: readonly string[], path: string): OptionChoice {
  // The common line: a dish without options, none chosen. Nothing to check, nothing allocated.
  if (optionIds.length === 0 && product.optionGroups.length === 0) return NOTHING_CHOSEN;
  const wanted = new Set(optionIds);
  const found = new Set<string>();
  const options: OrderLineOption[] = [];
  const groupIssues: FieldIssue[] = [];
  let priceDelta = 0;
  for (const group of product.optionGroups) {
    const unavailable: string[] = [];
    let count = 0;
    if (wanted.size > 0) {
      for (const option of group.options) {
        if (!wanted.has(option.optionId)) continue;
        found.add(option.optionId);
        count += 1;
        if (!option.available) unavailable.push(`${option.name} (${option.optionId}) is not available right now`);
        options.push({ optionId: option.optionId, name: option.name, priceDelta: option.priceDelta });
        priceDelta += option.priceDelta;
      }
    }
    const problems = count < group.min || count > group.max ? [`${countRule(group)}, ${count} chosen`, ...unavailable] : unavailable;
    if (problems.length > 0) groupIssues.push({ path, message: `"${group.name}" (${group.groupId}): ${problems.join('; ')}` });
  }
  const strangers = found.size === wanted.size ? [] : optionIds.filter((id) => !found.has(id));
  const issues = strangers.map((id) => ({ path, message: `${id} is not an option of "${product.name}"` })).concat(groupIssues);
  return issues.length > 0 ? { options: NO_OPTIONS, priceDelta: 0, issues } : { options, priceDelta, issues };
}

function countRule({ min, max }: OptionGroup): string {
  const plural = max === 1 ? 'option' : 'options';
  if (min === max) return `choose exactly ${min} ${plural}`;
  if (min === 0) return `choose at most ${max} ${plural}`;
  return `choose ${min} to ${max} ${plural}`;
}
