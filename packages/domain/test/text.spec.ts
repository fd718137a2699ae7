import { expect } from 'chai';
import { describe, it } from 'mocha';
import { parseFulfilment } from '../src/fulfilment/fulfilment-request.js';
import { displayNameOf } from '../src/accounts/display-name.js';
import { parseMenuDocument } from '../src/menu/menu-document.js';
import { parseReason } from '../src/orders/order-lifecycle.js';
import { givenPassword, newPassword } from '../src/accounts/password.js';
import { TEXT_RULE, textFits, type TextKind } from '../src/shared/text.js';
import { Issues } from '../src/shared/validation.js';
import { checkWebhookUrl } from '../src/webhooks/webhook-url.js';
import { issuesOf } from './refusals.js';

const KINDS: readonly TextKind[] = ['storable', 'line', 'lines'];

/** Each sample, and which kinds take it: storable, line, lines. */
const SAMPLES: readonly [string, string, boolean, boolean, boolean][] = [
  ['plain text', 'Karl-Liebknecht-Str. 8', true, true, true],
  ['letters beyond ASCII', 'Straße, Zürich, 東京', true, true, true],
  ['an emoji (a surrogate pair)', 'Pizza 🍕', true, true, true],
  ['right-to-left text with a mark', 'דירה \u200f4 \u061c', true, true, true],
  ['empty', '', true, true, true],
  ['NUL', 'a\u0000b', false, false, false],
  ['a lone high surrogate', 'a\ud800b', false, false, false],
  ['a lone low surrogate', '\udc00', false, false, false],
  ['a reversed pair', '\udc00\ud800', false, false, false],
  ['BEL', 'ding\u0007', true, false, false],
  ['ESC', '\u001b[2J', true, false, false],
  ['DEL', 'a\u007f', true, false, false],
  ['a C1 control (NEL)', 'a\u0085b', true, false, false],
  ['tab', 'a\tb', true, false, false],
  ['CR', 'a\rb', true, false, false],
  ['CR LF', 'a\r\nb', true, false, false],
  ['LF', 'ring twice\nthird floor', true, false, true],
  ['line separator', 'a\u2028b', true, false, false],
  ['paragraph separator', 'a\u2029b', true, false, false],
  ['right-to-left override', 'a\u202eb', true, false, false],
  ['left-to-right embedding', '\u202aab', true, false, false],
  ['first strong isolate', '\u2068ab\u2069', true, false, false],
];

describe('TEXT_RULE: text a store can hold and a screen shows as given', () => {
  for (const [what, sample, ...fits] of SAMPLES) {
    it(`${what}: ${KINDS.filter((_, i) => fits[i]).join(', ') || 'refused by every kind'}`, () => {
      KINDS.forEach((kind, i) => expect(textFits(sample, kind), kind).to.equal(fits[i]));
    });
  }

  it('is the same rule in every field that takes text, with the rule\'s sentence on the wire field', () => {
    const messageAt = (run: (issues: Issues) => void): [string, string][] => {
      const issues = new Issues();
      run(issues);
      return issues.list.map((issue) => [issue.path, issue.message]);
    };
    expect(messageAt((issues) => displayNameOf('Ann\u202e', 'name', issues))).to.deep.equal([['name', TEXT_RULE.line.message]]);
    // Checked as given, as the HTTP check reads it: a trailing newline is refused, not trimmed away.
    expect(messageAt((issues) => parseReason('late\r\n', issues))).to.deep.equal([['reason', TEXT_RULE.line.message]]);
    expect(messageAt((issues) => displayNameOf(' Ann\n', 'name', issues))).to.deep.equal([['name', TEXT_RULE.line.message]]);
    expect(messageAt((issues) => checkWebhookUrl('https://hooks.example.com/\u0007', false, issues))).to.deep.equal([['url', TEXT_RULE.line.message]]);
    const address = { line1: 'Main St 1', city: 'Berlin', postalCode: '10178\u0000', lat: 52.5, lng: 13.4, instructions: 'ring\ntwice\u001b' };
    expect(messageAt((issues) => parseFulfilment({ type: 'delivery', address }, issues))).to.deep.equal([
      ['fulfilment.address.postalCode', TEXT_RULE.line.message],
      ['fulfilment.address.instructions', TEXT_RULE.lines.message],
    ]);
  });

  it('holds a chosen password to `storable` only; a given one is compared as it is', () => {
    const refused = (run: (issues: Issues) => void): string[] => {
      const issues = new Issues();
      run(issues);
      return issues.list.map((issue) => issue.message);
    };
    expect(refused((issues) => newPassword('long enough\u0000', 'password', issues))).to.deep.equal([TEXT_RULE.storable.message]);
    expect(refused((issues) => newPassword('long enough\ud800', 'password', issues))).to.deep.equal([TEXT_RULE.storable.message]);
    expect(refused((issues) => newPassword('long enough\u0007\u202e', 'password', issues))).to.deep.equal([]);
    expect(refused((issues) => givenPassword('\u0000\ud800', 'password', issues))).to.deep.equal([]);
  });

  it('refuses the menu file\'s names, categories, descriptions, tags and option names by `line`', () => {
    const soup = { name: 'Soup', category: 'Starters', price: 450, description: 'Hot, with bread \u200f.', tags: ['hot'] };
    expect(parseMenuDocument({ products: [soup] })[0]!.description).to.equal('Hot, with bread \u200f.');
    const bad = {
      name: 'Soup\u202e',
      category: 'Start\u0000ers',
      price: 450,
      description: 'Hot.\nWith bread.',
      tags: ['hot', 'spi\u0007cy'],
      option_groups: [{ name: 'Size\n', min: 0, max: 1, options: [{ name: 'Large\ud800' }] }],
    };
    expect(issuesOf({ products: [soup, bad] })).to.have.members([
      'products.1.name', 'products.1.category', 'products.1.description', 'products.1.tags.1', 'products.1.option_groups.0.name', 'products.1.option_groups.0.options.0.name',
    ]);
  });
});
