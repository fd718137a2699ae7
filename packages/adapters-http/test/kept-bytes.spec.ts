/** Bytes that are kept: exactly the text's UTF-8, in a buffer of their own. */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { keptBytes } from '../src/kept-bytes.js';

describe('keptBytes', () => {
  it('holds exactly the UTF-8 of the text, multi-byte characters included', () => {
    for (const text of ['', '{"name":"Margherita"}', 'Crème brûlée — 🍮', 'x'.repeat(5000)]) {
      const bytes = keptBytes(text);
      expect(bytes.equals(Buffer.from(text))).to.equal(true, text.slice(0, 20));
      expect(bytes.toString()).to.equal(text);
    }
  });

  it('is a buffer of its own size, never a slice of the shared pool that would keep a whole slab alive', () => {
    const bytes = keptBytes('{"order_id":"ord_1"}');
    // Buffer.from of so short a text is a slice of an 8 KiB slab (the contrast that makes this test mean something).
    expect(Buffer.from('{"order_id":"ord_1"}').buffer.byteLength).to.be.greaterThan(1000);
    expect(bytes.byteOffset).to.equal(0);
    expect(bytes.buffer.byteLength).to.equal(bytes.length);
  });
});
