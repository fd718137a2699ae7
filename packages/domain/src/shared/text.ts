/**
 * Text a store can hold and a screen can show as given: one rule for every string that comes from
 * outside (request bodies, the CLI, the menu file), so that every store accepts and refuses
 * alike. Three kinds, each a character class written once (docs/decisions.md, "Issue 32,
 * items 4 and 5"):
 *
 * - `storable` (ids looked up in a store): no NUL (a database's text and JSON types may refuse it)
 *   and no unpaired surrogate (UTF-8 cannot encode one: one store would refuse it, another replace it
 *   with U+FFFD, so the stores would differ).
 * - `line` (names, address lines, reasons, descriptions, tags): also no control character (C0, DEL, C1:
 *   tab, CR and LF included), no line or paragraph separator (U+2028, U+2029) and no bidirectional
 *   embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which reorder what a kitchen
 *   card or a receiver shows. The marks U+200E, U+200F and U+061C stay: they cannot reorder more
 *   than the neutral next to them, and right-to-left addresses need them.
 * - `lines` (delivery instructions, the one field DECISIONS lets hold lines): `line`, but LF may
 *   separate lines.
 *
 * The patterns are JSON Schema `pattern`s (read with the `u` flag, as ajv and the document do);
 * packages/adapters-http/openapi.yaml uses them as they are, held to these by packages/app/test/contract/limits.spec.ts.
 */
import type { Issues } from './validation.js';

export type TextKind = 'storable' | 'line' | 'lines';

// In `u` mode `\p{Cs}` matches a surrogate only when it is unpaired: a pair is one code point.
const UNSTORABLE = '\\u0000\\p{Cs}';
const CONTROLS_BUT_LF = '\\u0001-\\u0009\\u000B-\\u001F\\u007F-\\u009F';
const SEPARATORS = '\\u2028\\u2029';
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';

export const TEXT_RULE = {
  storable: {
    pattern: `^[^${UNSTORABLE}]*$`,
    message: 'must be Unicode text without NUL or unpaired surrogates',
  },
  line: {
    pattern: `^[^${UNSTORABLE}${CONTROLS_BUT_LF}\\n${SEPARATORS}${BIDI_CONTROLS}]*$`,
    message: 'must be one line of text: no control characters, line breaks or bidirectional overrides',
  },
  lines: {
    pattern: `^[^${UNSTORABLE}${CONTROLS_BUT_LF}${SEPARATORS}${BIDI_CONTROLS}]*$`,
    message: 'must be text without control characters (newlines aside) or bidirectional overrides',
  },
} as const satisfies Record<TextKind, { pattern: string; message: string }>;

const COMPILED: Readonly<Record<TextKind, RegExp>> = {
  storable: new RegExp(TEXT_RULE.storable.pattern, 'u'),
  line: new RegExp(TEXT_RULE.line.pattern, 'u'),
  lines: new RegExp(TEXT_RULE.lines.pattern, 'u'),
};

/** Whether `value` is text of `kind`. */
export function textFits(value: string, kind: TextKind): boolean {
  return COMPILED[kind].test(value);
}

/** Whether `value` is text of `kind`; records TEXT_RULE's message at `path` when it is not. */
export function checkText(value: string, kind: TextKind, path: string, issues: Issues): boolean {
  if (textFits(value, kind)) return true;
  issues.add(path, TEXT_RULE[kind].message);
  return false;
}
