/**
 * Email: an account's address, built by `emailOf` only: a plain RFC 5321/5322 addr-spec, trimmed
 * and lower-cased, a dot-atom local part (≤ 64 characters) and a domain of two or more labels (≤ 63
 * each); letters beyond ASCII as RFC 6531 takes them, so existing accounts keep working. No control
 * or space character, `<>`, `,`, `;`, quotes or comments: nothing an SMTP server could read as a
 * second address or a display name.
 */
import { characterCount, type Issues } from '../shared/validation.js';

declare const email: unique symbol;
/** An address that passed EMAIL_RULE, normalised. */
export type Email = string & { readonly [email]: true };

// One character class per position, never an alternation of overlapping ones: `(?:a|b)+` over
// classes that share letters backtracks exponentially on an address that fails (ReDoS).
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\p{L}\\p{M}\\p{N}]";
const ATOM = `${ATEXT}+`;
const LABEL = '[A-Za-z0-9\\p{L}\\p{M}\\p{N}](?:[A-Za-z0-9\\p{L}\\p{M}\\p{N}\\-]{0,61}[A-Za-z0-9\\p{L}\\p{M}\\p{N}])?';

export const EMAIL_RULE = {
  /** The longest address SMTP carries (RFC 5321 path limit), in characters. */
  maxLength: 254,
  /** RFC 5321's local-part limit. */
  maxLocalLength: 64,
  /** The addr-spec, case-insensitive (the document's request schemas use it as their `pattern`, with surrounding blanks allowed). */
  pattern: `${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+`,
} as const;

const ADDRESS = new RegExp(`^${EMAIL_RULE.pattern}$`, 'u');

/** Emails are compared trimmed and lower-cased. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** `value` as an Email, or undefined when it is not a plain address (after trimming and lower-casing). */
export function emailOf(value: unknown): Email | undefined {
  if (typeof value !== 'string') return undefined;
  const address = normalizeEmail(value);
  if (characterCount(address) > EMAIL_RULE.maxLength || !ADDRESS.test(address)) return undefined;
  if (characterCount(address.slice(0, address.lastIndexOf('@'))) > EMAIL_RULE.maxLocalLength) return undefined;
  return address as Email;
}

/**
 * An email given to find an account (a login, a reset request), normalised: a non-blank string of
 * at most EMAIL_RULE.maxLength characters, whether or not it is a plain address (the use case asks
 * emailOf: one that is not finds no account). Records an issue at `email` (and answers '') otherwise.
 */
export function givenEmail(value: unknown, issues: Issues): string {
  if (typeof value !== 'string' || value.trim() === '' || characterCount(value) > EMAIL_RULE.maxLength) {
    issues.add('email', `is required: a string of at most ${EMAIL_RULE.maxLength} characters`);
    return '';
  }
  return normalizeEmail(value);
}
