/**
 * How far a query word may be misspelt (DECISIONS, "Search tolerates typos"): words of 1–3 letters
 * match exactly, words of 4–7 letters within one edit, words of 8 letters or more within two;
 * letters are counted after normalisation (`tokenize`), so "Tiramisù" and "tiramisu" are the same
 * 8-letter word. An edit is an insertion, a deletion, a substitution or the swap of two neighbouring
 * letters (restricted Damerau–Levenshtein: "optimal string alignment").
 *
 * Words with a digit in them ("12", "6pack", "330ml") are matched exactly, as query words and as menu
 * words: a number one off is another number ("no. 12" is not "no. 13"), and the numbers of a large
 * menu would otherwise swamp the vocabulary the typo step walks.
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
