/**
 * Passwords, checked in one place: a password a customer chooses (sign-up, reset, the operator's
 * CLI) is 8 to 128 characters with no composition rules (NIST SP 800-63B); a password given to
 * prove who one is (login, erasure) is any non-empty string up to 1,024 characters, a bound on the
 * hashing work that still takes every password an account was ever given. Characters are code
 * points, as everywhere.
 */
import { checkText } from '../shared/text.js';
import { characterCount, type Issues } from '../shared/validation.js';

declare const password: unique symbol;
/** A password that passed the rule it was built by; never logged, never stored as given. */
export type Password = string & { readonly [password]: true };

export const PASSWORD_RULE = {
  minLength: 8,
  maxLength: 128,
  /** Login and erasure take longer ones, up to this: no account has a longer one. */
  maxGivenLength: 1024,
} as const;

/**
 * A password chosen now; records an issue at `path` otherwise. It is text a store can hold (no NUL,
 * no unpaired surrogate), though only its hash is stored: an unpaired surrogate would be hashed as
 * U+FFFD (two passwords, one hash) and a NUL cuts a password short in C libraries a later hash may use.
 */
export function newPassword(value: unknown, path: string, issues: Issues): Password {
  const password = checked(value, PASSWORD_RULE.minLength, PASSWORD_RULE.maxLength, path, issues);
  if (issues.list.every((issue) => issue.path !== path)) checkText(password, 'storable', path, issues);
  return password;
}

/**
 * A password given to be verified; records an issue at `path` otherwise. Its characters are not
 * checked: it is hashed, never stored, and an account made before TEXT_RULE may hold any.
 */
export function givenPassword(value: unknown, path: string, issues: Issues): Password {
  return checked(value, 1, PASSWORD_RULE.maxGivenLength, path, issues);
}

function checked(value: unknown, min: number, max: number, path: string, issues: Issues): Password {
  const length = typeof value === 'string' ? characterCount(value) : 0;
  if (length < min || length > max) issues.add(path, `is required: a string of ${min} to ${max} characters`);
  return (typeof value === 'string' ? value : '') as Password;
}
