/** Text normalisation shared by indexing and querying: case- and accent-insensitive words. */
const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;
// For ASCII text NFD changes nothing, there are no marks, and once lower-cased the letters and
// digits are [a-z0-9]: the same words for a fraction of the cost (menus are mostly ASCII).
const ASCII = /^[\x00-\x7f]*$/;

// Letters that are not a base letter plus a mark, so NFD leaves them whole: fold them as a menu
// reader would type them ("boeuf" finds "Bœuf", "strasse" finds "Straße").
const LIGATURES = /[œæßøłđþ]/g;
const LIGATURE_FOLDS: Readonly<Record<string, string>> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };

export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(LIGATURES, (letter) => LIGATURE_FOLDS[letter] ?? letter);
}

export function tokenize(text: string): string[] {
  const words: string[] = [];
  forEachToken(text, (word) => words.push(word));
  return words;
}

/** Calls `visit` with each word of `tokenize(text)`, in order, without building the list. */
export function forEachToken(text: string, visit: (word: string) => void): void {
  if (!ASCII.test(text)) {
    for (const word of normalizeText(text).split(NON_WORD)) if (word.length > 0) visit(word);
    return;
  }
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    const wordChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (wordChar) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) visit(start === 0 ? lower : lower.slice(start));
}

export const SEARCH_LIMITS = { maxQueryLength: 100 } as const;
