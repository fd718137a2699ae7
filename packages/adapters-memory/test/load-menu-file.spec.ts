import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rejectionOf } from '@storefront/testing';
import { loadMenuFile, MenuFileError } from '../src/index.js';

describe('loadMenuFile', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-menu-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a JSON menu document, byte-order mark or not', async () => {
    const path = join(dir, 'menu.json');
    await writeFile(path, '\uFEFF{"products": [{"name": "Soup"}]}');
    expect(await loadMenuFile(path)).to.deep.equal({ products: [{ name: 'Soup' }] });
  });

  it('names the file when it cannot be read', async () => {
    const path = join(dir, 'missing.json');
    const error = await rejectionOf(loadMenuFile(path));
    expect(error).to.be.instanceOf(MenuFileError);
    expect((error as MenuFileError).message).to.include(path).and.include('Cannot read');
    expect((error as MenuFileError).path).to.equal(path);
  });

  it('names the file when it is not JSON', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{"products": [');
    const error = await rejectionOf(loadMenuFile(path));
    expect(error).to.be.instanceOf(MenuFileError);
    expect((error as MenuFileError).message).to.include(path).and.include('not valid JSON');
  });
});
