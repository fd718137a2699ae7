/**
 * Text a store can hold and a screen can show as given: one rule for every string from outside, so
 * every store accepts and refuses alike. `storable` (no NUL, no unpaired surrogate), `line` (nor
 * control, line separator or bidi override) and `lines` (`line`, LF between lines): JSON Schema
 * `pattern`s docs/openapi.yaml uses as they are (docs/decisions.md, "Issue 32, items 4 and 5").
 */

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
/** Where a refusal is noted (validation.ts's Issues). */
export interface IssueSink {
  add(path: string, message: string): void;
}

export function checkText(value: string, kind: TextKind, path: string, issues: IssueSink): boolean {
  if (textFits(value, kind)) return true;
  issues.add(path, TEXT_RULE[kind].message);
  return false;
}
