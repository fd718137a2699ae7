/**
 * `menu export` and `menu import` with option groups, run in-process on memory stores (a spawned CLI
 * would get a fresh memory store per command): the export is the import format, and a round trip
 * changes nothing, option ids included.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'mocha';
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters, type MemoryAdapters } from '@storefront/adapters-memory';
import { createStorefront, type Storefront } from '@storefront/domain';
import { CliError, runCommand, type CliIo } from '../src/cli/commands.js';

interface World {
  readonly storefront: Storefront;
  readonly adapters: MemoryAdapters;
  run(...args: string[]): Promise<string>;
}

function world(): World {
  const adapters = createMemoryAdapters();
  const storefront = createStorefront({ ...adapters, ...createCryptoAdapters({ scrypt: { logN: 10 } }) });
  const run = async (...args: string[]): Promise<string> => {
    const out: string[] = [];
    const io: CliIo = { out: (text) => out.push(text), readPassword: async () => 'a-long-password', readSecret: async () => '' };
    await runCommand(storefront, args, io);
    return out.join('\n');
  };
  return { storefront, adapters, run };
}

describe('storefront CLI: menu export and import with option groups', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-menu-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('exports the option groups in the import format, without ids', async () => {
    const { run } = world();
    await run('seed', '--demo');
    const exported = JSON.parse(await run('menu', 'export')) as { products: { name: string; option_groups: unknown[] }[] };
    const pizza = exported.products.find((p) => p.name === 'Pizza Margherita')!;
    expect(pizza.option_groups).to.deep.equal([
      { name: 'Size', min: 1, max: 1, options: [{ name: 'Regular', price_delta: 0, available: true }, { name: 'Large', price_delta: 400, available: true }] },
      {
        name: 'Extra toppings',
        min: 0,
        max: 3,
        options: ['Extra cheese', 'Mushrooms', 'Olives', 'Pepperoni'].map((name) => ({ name, price_delta: 150, available: true })),
      },
    ]);
    expect(exported.products.find((p) => p.name === 'Açaí bowl')!.option_groups).to.deep.equal([]);
    expect(JSON.stringify(exported)).to.not.match(/"(prd|grp|opt)_/);
  });

  it('round-trips: export → import into another store → export gives the same text and the same option ids', async () => {
    const first = world();
    await first.run('seed', '--demo');
    const exported = await first.run('menu', 'export');

    const second = world();
    expect(await second.run('menu', 'import', file('round-trip.json', exported))).to.match(/^imported 2\d products from /);
    expect(await second.run('menu', 'export')).to.equal(exported);
    const ids = async (w: World) => (await w.adapters.menu.list()).map((p) => p.optionGroups.map((g) => [g.groupId, g.options.map((o) => o.optionId)]));
    expect(await ids(second)).to.deep.equal(await ids(first));
  });

  it('changes nothing when the export is imported back into the same store', async () => {
    const { run, adapters } = world();
    await run('seed', '--demo');
    const before = { menu: await adapters.menu.list(), revision: await adapters.menu.revision() };
    await run('menu', 'import', file('same.json', await run('menu', 'export')));
    expect(await adapters.menu.list()).to.deep.equal(before.menu);
    expect(await adapters.menu.revision()).to.equal(before.revision);
  });

  it('refuses a menu file whose option groups break the rules, naming every problem, and imports nothing', async () => {
    const { run, adapters } = world();
    const bad = { products: [{ name: 'Pizza', category: 'Pizza', price: 1000, option_groups: [{ name: 'Size', min: 2, max: 3, options: [{ name: 'Large', price_delta: -5 }] }] }] };
    const error = await run('menu', 'import', file('bad.json', JSON.stringify(bad))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CliError);
    const message = (error as CliError).message;
    expect(message).to.contain('products.0.option_groups.0.max').and.contain('products.0.option_groups.0.options.0.price_delta');
    expect(await adapters.menu.list()).to.deep.equal([]);
  });

  it('refuses a menu file or an account name with text no store holds or that reorders a screen (issue 32), and keeps nothing', async () => {
    const { run, adapters } = world();
    const bad = { products: [{ name: 'Pizza\u202e', category: 'Pizza\u0000', price: 1000, description: 'Thin.\nCrisp.', tags: ['hot\u001b'], option_groups: [{ name: 'Size', min: 0, max: 1, options: [{ name: 'Large\ud800' }] }] }] };
    const error = await run('menu', 'import', file('odd.json', JSON.stringify(bad))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CliError);
    const message = (error as CliError).message;
    for (const path of ['products.0.name', 'products.0.category', 'products.0.description', 'products.0.tags.0', 'products.0.option_groups.0.options.0.name']) expect(message).to.contain(path);
    expect(await adapters.menu.list()).to.deep.equal([]);
    const refused = await run('customers', 'add', '--email', 'ann@example.com', '--name', 'Ann\u001b[2J').catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(CliError);
    expect((refused as CliError).message).to.contain('name');
    expect(await adapters.customers.findByEmail('ann@example.com' as never)).to.equal(null);
  });
});
