/**
 * How far a query word may be misspelt (DECISIONS, "Search tolerates typos"): 1–3 letters exactly,
 * 4–7 within one edit, 8 or more within two, letters counted after `tokenize`. An edit is
 * restricted Damerau–Levenshtein ("optimal string alignment"): insertion, deletion, substitution,
 * swap. Words with a digit ("12", "330ml") match exactly: a number one off is another number, and a
 * large menu's numbers would swamp the vocabulary the typo walk reads.
 */
export const TYPO_RULES = { oneEditFrom: 4, twoEditsFrom: 8 } as const;

/** The most edits any word is allowed (the weight byte of a posting has room for 0–3). */
export const MAX_EDITS = 2;

/** Edits allowed for `word`, a token of `tokenize`: 0, 1 or 2. */
export function typoBudget(word: string): number {
  if (!lettersOnly(word)) return 0;
  const letters = letterCount(word);
  return letters >= TYPO_RULES.twoEditsFrom ? 2 : letters >= TYPO_RULES.oneEditFrom ? 1 : 0;
}

const DIGIT = /\p{N}/u;

/** Whether a token (letters and digits only, as `tokenize` makes them) has no digit. */
export function lettersOnly(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) return false;
    if (c >= 128) return !DIGIT.test(token);
  }
  return true;
}

/** Letters in a token: code points, so that a letter outside the BMP counts once. */
function letterCount(token: string): number {
  let count = token.length;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) count -= 1;
  }
  return count;
}
