/** Small validators shared by use cases; each records a FieldIssue instead of throwing. */
import type { FieldIssue } from './errors.js';
import { validationFailed } from './errors.js';
import { checkText } from './text.js';

export class Issues {
  readonly list: FieldIssue[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  throwIfAny(message?: string): void {
    if (this.list.length > 0) throw validationFailed(this.list, message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * The length of `text` in characters as a person counts them (Unicode code points, as NIST SP
 * 800-63B and JSON Schema's `maxLength` do), not in UTF-16 units: an emoji is one character.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Records an issue for every key of `record` not in `known` (a misspelt field must not be silently dropped). */
export function unknownFields(record: Record<string, unknown>, known: ReadonlySet<string>, path: string, issues: Issues): void {
  for (const key of Object.keys(record)) if (!known.has(key)) issues.add(`${path}.${key}`, 'is not a known field');
}

/**
 * The trimmed text of `record[field]`: one line (TEXT_RULE) of at most `max` characters,
 * non-blank when `required`; an absent optional field is ''. Records an issue (and answers '') otherwise.
 */
export function textField(record: Record<string, unknown>, field: string, path: string, max: number, required: boolean, issues: Issues): string {
  const value = record[field];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && value.trim() === '') || characterCount(value) > max) {
    issues.add(`${path}.${field}`, `must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters`);
    return '';
  }
  return checkText(value, 'line', `${path}.${field}`, issues) ? value.trim() : '';
}
