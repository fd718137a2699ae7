/**
 * The `option_groups` of a product in a menu document, checked against OPTION_LIMITS and the rules
 * of DECISIONS "Menu options": `min` ≥ 0, `max` ≥ 1, `min` ≤ `max` ≤ the number of options, a
 * non-negative integer `price_delta`, names unique (regardless of case) within the product and the group.
 */
import type { OptionDraft, OptionGroupDraft } from './option-group.js';
import { OPTION_LIMITS } from './option-group.js';
import { optionNameKey } from './option-ids.js';
import { isMoney } from '../shared/money.js';
import { isIntegerIn, isRecord, type Issues, textField, unknownFields } from '../shared/validation.js';

const GROUP_FIELDS = new Set(['name', 'min', 'max', 'options']);
const OPTION_FIELDS = new Set(['name', 'price_delta', 'available']);
const { maxGroups, maxOptionsPerGroup, maxNameLength, maxPriceDelta } = OPTION_LIMITS;

/** The groups at `path` (absent: none); every problem is recorded in `issues`. */
export function parseOptionGroups(value: unknown, path: string, issues: Issues): OptionGroupDraft[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > maxGroups) {
    issues.add(path, `must be a list of at most ${maxGroups} option groups`);
    return [];
  }
  const names = new Set<string>();
  const groups: OptionGroupDraft[] = [];
  value.forEach((item: unknown, g) => {
    const group = parseGroup(item, `${path}.${g}`, issues);
    if (group === null) return;
    const key = optionNameKey(group.name);
    if (names.has(key)) issues.add(`${path}.${g}.name`, `"${group.name}" appears twice`);
    names.add(key);
    groups.push(group);
  });
  return groups;
}

function parseGroup(value: unknown, path: string, issues: Issues): OptionGroupDraft | null {
  if (!isRecord(value)) {
    issues.add(path, 'must be an object with name, min, max and options');
    return null;
  }
  const before = issues.list.length;
  unknownFields(value, GROUP_FIELDS, path, issues);
  const name = textField(value, 'name', path, maxNameLength, true, issues);
  const { min, max, options: list } = value;
  const minOk = isIntegerIn(min, 0, maxOptionsPerGroup);
  const maxOk = isIntegerIn(max, 1, maxOptionsPerGroup);
  if (!minOk) issues.add(`${path}.min`, 'must be an integer, 0 or more (0: choosing from the group is optional)');
  if (!maxOk) issues.add(`${path}.max`, 'must be an integer, 1 or more');
  if (minOk && maxOk && min > max) issues.add(`${path}.min`, `must not be above max (${max})`);
  if (!Array.isArray(list) || list.length === 0 || list.length > maxOptionsPerGroup) {
    issues.add(`${path}.options`, `must be a list of 1 to ${maxOptionsPerGroup} options`);
    return null;
  }
  if (maxOk && max > list.length) issues.add(`${path}.max`, `must not be above the number of options (${list.length})`);
  const options = parseOptions(list, `${path}.options`, issues);
  if (issues.list.length > before) return null;
  return { name, min: min as number, max: max as number, options };
}

function parseOptions(list: readonly unknown[], path: string, issues: Issues): OptionDraft[] {
  const names = new Set<string>();
  const options: OptionDraft[] = [];
  list.forEach((item, o) => {
    const at = `${path}.${o}`;
    if (!isRecord(item)) return issues.add(at, 'must be an object with name, price_delta and available');
    unknownFields(item, OPTION_FIELDS, at, issues);
    const name = textField(item, 'name', at, maxNameLength, true, issues);
    const key = optionNameKey(name);
    if (name !== '' && names.has(key)) issues.add(`${at}.name`, `"${name}" appears twice in the group`);
    names.add(key);
    const priceDelta = item['price_delta'] ?? 0;
    if (!isMoney(priceDelta, maxPriceDelta)) issues.add(`${at}.price_delta`, 'must be an integer number of minor units (cents), 0 or more');
    const available = item['available'] ?? true;
    if (typeof available !== 'boolean') issues.add(`${at}.available`, 'must be true or false');
    options.push({ name, priceDelta: priceDelta as number, available: available as boolean });
  });
  return options;
}
