/**
 * How stores give option groups and options their ids: derived from the names (the product's, the
 * group's, the option's; case-insensitive, as product names are matched), so that importing the
 * same menu again, in any store, keeps every id a customer's app may hold, without reading what is
 * stored first. Renaming a group or an option gives it a new id, as renaming a product does.
 * Written down in docs/decisions.md, "Menu options".
 */
import { validationFailed } from '../shared/errors.js';
import { derivedId } from '../shared/ids.js';
import type { Option, OptionGroup, OptionGroupDraft } from './option-group.js';

const NO_GROUPS: readonly OptionGroup[] = Object.freeze([]);

/** Names are unique regardless of case: within a menu (products), a product (groups) and a group (options). */
export function optionNameKey(name: string): string {
  return name.toLowerCase();
}

/**
 * The groups of the product named `productName` with their ids, frozen. Refuses (validation_failed,
 * paths under `path`) two groups of one name, or two options of one name in a group: they would
 * share an id.
 */
export async function assignOptionIds(productName: string, drafts: readonly OptionGroupDraft[], path = 'optionGroups'): Promise<readonly OptionGroup[]> {
  if (drafts.length === 0) return NO_GROUPS;
  assertUniqueNames(drafts, path);
  const productKey = optionNameKey(productName);
  const groups = await Promise.all(
    drafts.map(async (draft): Promise<OptionGroup> => {
      const groupKey = optionNameKey(draft.name);
      const options = await Promise.all(
        draft.options.map(async (option): Promise<Option> =>
          Object.freeze({
            optionId: await derivedId('opt', JSON.stringify([productKey, groupKey, optionNameKey(option.name)])),
            name: option.name,
            priceDelta: option.priceDelta,
            available: option.available,
          }),
        ),
      );
      return Object.freeze({
        groupId: await derivedId('grp', JSON.stringify([productKey, groupKey])),
        name: draft.name,
        min: draft.min,
        max: draft.max,
        options: Object.freeze(options),
      });
    }),
  );
  return Object.freeze(groups);
}

function assertUniqueNames(drafts: readonly OptionGroupDraft[], path: string): void {
  const issues: { path: string; message: string }[] = [];
  const groups = new Set<string>();
  drafts.forEach((group, g) => {
    const key = optionNameKey(group.name);
    if (groups.has(key)) issues.push({ path: `${path}.${g}.name`, message: `"${group.name}" appears twice` });
    groups.add(key);
    const options = new Set<string>();
    group.options.forEach((option, o) => {
      const optionKey = optionNameKey(option.name);
      if (options.has(optionKey)) issues.push({ path: `${path}.${g}.options.${o}.name`, message: `"${option.name}" appears twice in "${group.name}"` });
      options.add(optionKey);
    });
  });
  if (issues.length > 0) throw validationFailed(issues);
}
