import { describe, it } from 'mocha';
import { expect } from 'chai';
import { tokenize } from '../src/search/normalize.js';
import { lettersOnly, typoBudget } from '../src/search/typo-rules.js';

describe('typoBudget', () => {
  it('allows no edit below 4 letters, one from 4 to 7, two from 8', () => {
    const table: [word: string, edits: number][] = [
      ['p', 0], ['pi', 0], ['pie', 0],
      ['piza', 1], ['pizza', 1], ['chiken', 1], ['tiramsu', 1],
      ['tiramisu', 2], ['margarita', 2], ['mozzarella', 2], ['a'.repeat(100), 2],
    ];
    for (const [word, edits] of table) expect(typoBudget(word), word).to.equal(edits);
  });

  it('counts letters after normalisation: accents folded, one per letter', () => {
    const budget = (text: string): number => typoBudget(tokenize(text)[0]!);
    // "Thé" typed with a combining accent is 4 code units but 3 letters.
    expect(budget('The\u0301')).to.equal(0);
    expect(budget('Tiramisù')).to.equal(2);
    expect(budget('Tiramisu\u0300')).to.equal(2);
    // "Bœuf" folds to "boeuf": 5 letters.
    expect(budget('Bœuf')).to.equal(1);
    // A letter outside the BMP is one letter, not two code units.
    expect(typoBudget('𝒶𝒷𝒸')).to.equal(0);
    expect(typoBudget('𝒶𝒷𝒸𝒹')).to.equal(1);
  });

  it('allows no edit to a word with a digit in it', () => {
    for (const word of ['1234', '12345678', '330ml', 'pizza2', '٣٣٠ml']) expect(typoBudget(word), word).to.equal(0);
  });
});

describe('lettersOnly', () => {
  it('tells words from words with a digit, in any script', () => {
    expect(['pizza', 'crème', 'борщ', 'ramen'].map(lettersOnly)).to.deep.equal([true, true, true, true]);
    expect(['12', 'a1', '٣', 'x²'].map(lettersOnly)).to.deep.equal([false, false, false, false]);
  });
});
