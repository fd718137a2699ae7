/** DisplayName: how the store addresses a customer, one line of 1 to 100 characters (code points) once trimmed. */
import { checkText } from '../shared/text.js';
import { characterCount, type Issues } from '../shared/validation.js';

declare const displayName: unique symbol;
export type DisplayName = string & { readonly [displayName]: true };

export const DISPLAY_NAME_RULE = { minLength: 1, maxLength: 100 } as const;

/** The trimmed name; records an issue at `path` otherwise. */
export function displayNameOf(value: unknown, path: string, issues: Issues): DisplayName {
  const name = typeof value === 'string' ? value.trim() : '';
  const length = characterCount(name);
  if (length < DISPLAY_NAME_RULE.minLength || length > DISPLAY_NAME_RULE.maxLength) {
    issues.add(path, `must be a string of ${DISPLAY_NAME_RULE.minLength} to ${DISPLAY_NAME_RULE.maxLength} characters`);
  } else {
    // As given, as the HTTP check reads it: a trailing newline is refused, not trimmed away.
    checkText(value as string, 'line', path, issues);
  }
  return name as DisplayName;
}
