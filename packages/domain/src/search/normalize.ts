/** Text normalisation shared by indexing and querying: case- and accent-insensitive words. */
const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;

export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

export function tokenize(text: string): string[] {
  return normalizeText(text).split(NON_WORD).filter((word) => word.length > 0);
}

export const SEARCH_LIMITS = { maxQueryLength: 100 } as const;
